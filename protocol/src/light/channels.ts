/**
 * Mirrors of the consumer channels' shapes (`../channels.ts`, `PaymentLinkStateSchema`) for the pages the service
 * serves: the hosted payment page, the sticker's waiting page and the sandbox terminal simulator. Checked against
 * their zod originals in light.test.ts.
 */
import { CURRENCIES, METHOD_TYPES } from '../constants';
import { TRANSACTION_STATUS_CODES, TRANSACTION_STATUS_NAMES } from './constants';
import { array, boolean, isoDatetime, literal, nullable, number, object, oneOf, string, union } from './schema';
import { BrowserTransactionWire, ProductWire } from './transaction';

const int = number({ int: true });

export const PaymentLinkStateWire = object({
  TransactionNumber: string(),
  amount: nullable(number()),
  amountCents: nullable(int),
  currency: oneOf(CURRENCIES),
  businessName: string(),
  products: array(ProductWire),
  methodType: oneOf(METHOD_TYPES),
  status: union(
    '',
    TRANSACTION_STATUS_CODES.map((code) => literal(code)),
  ),
  statusName: oneOf(TRANSACTION_STATUS_NAMES),
  timeoutDate: nullable(isoDatetime),
  payable: boolean,
  lastFourDigits: nullable(string()),
  confirmationNumber: nullable(string()),
  refundedCents: int,
  maxInstallments: number({ int: true, min: 1 }),
});

export const StickerNextWire = union('type', [object({ type: literal('waiting') }), object({ type: literal('payment'), url: string() })]);

export const TerminalCurrentWire = object({ transaction: nullable(PaymentLinkStateWire) });

/** What a page needs of a websocket `transaction.updated` message: that it is one, and its sequence. */
export const TransactionUpdatedNoticeWire = object({ type: literal('transaction.updated'), eventId: string(), sequence: number({ int: true, min: 1 }) });

/** A `transaction.updated` message on a browser socket (`?session=`, `?link=`): the notice with the transaction's browser view. */
export const BrowserTransactionUpdatedWire = object({
  type: literal('transaction.updated'),
  eventId: string(),
  sequence: number({ int: true, min: 1 }),
  transaction: BrowserTransactionWire,
});
