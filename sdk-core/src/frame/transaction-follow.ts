/**
 * Follows the SDK session's transaction on the service's websocket (`/ws?session=<token>` on the service's origin: the
 * card frame and the iframe SDK's widget page) until it leaves 15 AwaitingAuthentication: how a widget learns that the
 * shopper's bank answered (docs/integrating.md#3-d-secure-and-installments-in-the-widgets). The connection is the shared
 * LiveUpdates: it subscribes with `afterSequence: 0` on every connection, so an answer given before the socket opened
 * is replayed, and reconnects after a drop until stopped, unless the server's close says reconnecting cannot help. Runs
 * only on the service's origin: the token never reaches the merchant page.
 */
import type { BrowserTransaction } from '@svc/protocol';
import { BrowserTransactionUpdatedWire, WS_CLOSE_CODES } from '@svc/protocol/light';
import { Status } from '@svc/protocol/status';
import { LiveUpdates } from '../shared/live-updates';

/** The statuses a payment waiting for the bank passes through before its outcome. */
const WAITING: ReadonlySet<number> = new Set([Status.Pending, Status.AwaitingAuthentication]);
/** Closes after which reconnecting with the same session cannot help. */
const FINAL_CLOSES: ReadonlySet<number> = new Set([WS_CLOSE_CODES.UNSUPPORTED_DATA, WS_CLOSE_CODES.POLICY_VIOLATION, WS_CLOSE_CODES.CREDENTIAL_REVOKED]);

export interface TransactionFollow {
  /** The transaction once it has left AwaitingAuthentication. */
  readonly settled: Promise<BrowserTransaction>;
  /** Closes the socket; no reconnection. */
  stop(): void;
}

export function followTransaction(sessionToken: string, transactionNumber: string, origin: string = location.origin): TransactionFollow {
  let resolve: (transaction: BrowserTransaction) => void = () => undefined;
  const settled = new Promise<BrowserTransaction>((done) => (resolve = done));
  const live = new LiveUpdates({
    origin,
    query: () => ({ session: sessionToken }),
    subscribe: () => ({ type: 'subscribe', transactionNumber, afterSequence: 0 }),
    notice: BrowserTransactionUpdatedWire,
    onNotice: ({ transaction }) => {
      if (transaction.TransactionNumber !== transactionNumber || WAITING.has(transaction.status)) return;
      live.close();
      resolve(transaction);
    },
    reconnect: (event) => !FINAL_CLOSES.has(event.code),
  });
  live.open();
  return { settled, stop: () => live.close() };
}
