/**
 * Mirrors of the Express schemas (`../sdk.ts`): what the Express script reads of the payment's answer, and the payment
 * data its `onPay` receives. Checked against the zod originals in light.test.ts.
 */
import { WALLET_METHODS } from '../constants';
import { isoDatetime, number, object, oneOf, string } from './schema';

/** protocol ExpressPaymentAnswerSchema */
export const ExpressPaymentAnswerWire = object({ TransactionNumber: string(), status: number({ int: true }), date: isoDatetime });

/** protocol PartyInformationSchema: the Express sheet's billing or shipping details. */
export const PartyInformationWire = object({
  fullName: string({ max: 200 }),
  firstName: string({ max: 100 }),
  lastName: string({ max: 100 }),
  addressLine1: string({ max: 200 }),
  addressLine2: string({ max: 200 }),
  city: string({ max: 100 }),
  state: string({ max: 100 }),
  postalCode: string({ max: 20 }),
  country: string({ max: 100 }),
  email: string({ max: 254 }),
});

/** protocol ExpressPayDataSchema: what Express's onPay receives. */
export const ExpressPayDataWire = object({
  code: number(),
  method: oneOf(WALLET_METHODS),
  timestamp: isoDatetime,
  transactionNumber: string(),
  billingInformation: PartyInformationWire,
  shippingInformation: PartyInformationWire,
});
