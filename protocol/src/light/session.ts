/**
 * Mirrors of the session and SDK error schemas (`../sdk.ts`), apart from the frame messages of `./sdk.ts` so that a
 * bundle using only these (Express) leaves the rest out. Checked against the zod originals in light.test.ts.
 */
import { PAYMENT_METHODS } from '../constants';
import { array, isoDatetime, object, oneOf, string } from './schema';

export { SdkErrorWire } from './sdk-error';

export const SdkSessionWire = object({
  sessionId: string(),
  sessionToken: string(),
  paymentMethods: array(oneOf(PAYMENT_METHODS)),
  expiresAt: isoDatetime,
});
