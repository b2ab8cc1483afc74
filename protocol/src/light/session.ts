/**
 * Mirrors of the session and SDK error schemas (`../sdk.ts`), apart from the frame messages of `./sdk.ts` so that a
 * bundle using only these (Express) leaves the rest out. Checked against the zod originals in light.test.ts.
 */
import { PAYMENT_METHODS } from '../constants';
import { array, isoDatetime, literal, number, object, oneOf, optional, string, url } from './schema';

export { SdkErrorWire } from './sdk-error';

export const SdkSessionWire = object({
  sessionId: string(),
  sessionToken: string(),
  paymentMethods: array(oneOf(PAYMENT_METHODS)),
  expiresAt: isoDatetime,
  maxInstallments: number({ int: true, min: 1 }),
});

/** Mirror of protocol `RequiresActionSchema`: a card payment's 202 answer when the consumer's bank asks for 3-D Secure. */
export const RequiresActionWire = object({
  status: literal('requires_action'),
  action: object({ type: literal('three_d_secure'), url }),
  transactionNumber: optional(string()),
});
