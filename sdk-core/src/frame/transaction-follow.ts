/**
 * Follows the SDK session's transaction on the service's websocket (`/ws?session=<token>` on this page's origin, the
 * service's: the card frame and the iframe SDK's widget page) until it leaves 15 AwaitingAuthentication: how a widget
 * learns that the shopper's bank answered (docs/integrating.md#3-d-secure-and-installments-in-the-widgets). It subscribes with
 * `afterSequence: 0`, so an answer given before the socket opened is replayed, and reconnects after a drop (1 s, doubling,
 * at most 30 s) until stopped. Runs only on the service's origin: the token never reaches the merchant page.
 */
import type { BrowserTransaction } from '@svc/protocol';
import { BrowserTransactionWire, parseWith } from '@svc/protocol/light';

/** The statuses a payment waiting for the bank passes through before its outcome: 1 Pending, 15 AwaitingAuthentication. */
const WAITING: ReadonlySet<number> = new Set([1, 15]);
const RECONNECT_MAX_MS = 30_000;
/**
 * Closes after which reconnecting cannot help (protocol's WS_CLOSE_CODES, whose module the bundles leave out): 1003
 * unsupported data, 1008 policy violation, 4001 credential revoked.
 */
const FINAL_CLOSES: ReadonlySet<number> = new Set([1003, 1008, 4001]);

export interface TransactionFollow {
  /** The transaction once it has left AwaitingAuthentication. */
  readonly settled: Promise<BrowserTransaction>;
  /** Closes the socket; no reconnection. */
  stop(): void;
}

export function followTransaction(sessionToken: string, transactionNumber: string, origin: string = location.origin): TransactionFollow {
  let socket: WebSocket | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let resolve: (transaction: BrowserTransaction) => void = () => undefined;
  const settled = new Promise<BrowserTransaction>((done) => (resolve = done));
  const stop = (): void => {
    stopped = true;
    clearTimeout(timer);
    const open = socket;
    socket = null;
    open?.close();
  };
  const connect = (attempt: number): void => {
    if (stopped) return;
    const url = new URL('/ws', origin);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('session', sessionToken);
    const ws = new WebSocket(url);
    socket = ws;
    ws.addEventListener('open', () => {
      attempt = 0;
      ws.send(JSON.stringify({ type: 'subscribe', transactionNumber, afterSequence: 0 }));
    });
    ws.addEventListener('message', (event) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (typeof data !== 'object' || data === null || (data as { type?: unknown }).type !== 'transaction.updated') return;
      const parsed = parseWith(BrowserTransactionWire, (data as { transaction?: unknown }).transaction);
      if (!parsed.ok || parsed.value.TransactionNumber !== transactionNumber || WAITING.has(parsed.value.status)) return;
      stop();
      resolve(parsed.value);
    });
    ws.addEventListener('close', (event) => {
      if (socket !== ws || stopped) return;
      socket = null;
      if (FINAL_CLOSES.has(event.code)) return;
      timer = setTimeout(() => connect(attempt + 1), Math.min(RECONNECT_MAX_MS, 1000 * 2 ** attempt));
    });
  };
  connect(0);
  return { settled, stop };
}
