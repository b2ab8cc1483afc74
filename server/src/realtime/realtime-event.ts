import type { Transaction } from '@svc/protocol';
import type { TransactionView } from './audience';

/**
 * One transaction event on its way to sockets. The message text is built once per view and shared by every
 * subscriber: the full view splices the stored payload in as it is; the consumer view parses it once.
 */
export class RealtimeEvent {
  readonly #messages = new Map<TransactionView, string>();

  constructor(
    readonly eventId: string,
    readonly transactionNumber: string,
    readonly sequence: number,
    readonly payload: string,
  ) {}

  message(view: TransactionView): string {
    let text = this.#messages.get(view);
    if (text === undefined) {
      const transaction = view === 'full' ? this.payload : JSON.stringify(consumerView(JSON.parse(this.payload) as Transaction));
      text = `{"type":"transaction.updated","eventId":${JSON.stringify(this.eventId)},"sequence":${this.sequence},"transaction":${transaction}}`;
      this.#messages.set(view, text);
    }
    return text;
  }
}

/** What a consumer's browser may see of the transaction object: the payment token and the merchant's POS data are not theirs. */
function consumerView(transaction: Transaction): Transaction {
  return { ...transaction, paymentDetails: null, posData: null };
}
