/**
 * A page's live connection to the service's websocket (`/ws` on the page's origin), shared by the hosted payment page
 * (`?link=`) and the sandbox terminal simulator (`?deviceId=`): it subscribes on every (re)connection, passes on each
 * `transaction.updated` notice that parses, and reconnects after a drop with a backoff (1 s, doubling, at most 30 s)
 * unless the page says not to or closed it itself.
 */
import { parseWith, TransactionUpdatedNoticeWire, type Infer } from '@svc/protocol/light';

export type TransactionUpdatedNotice = Infer<typeof TransactionUpdatedNoticeWire>;

const RECONNECT_MAX_MS = 30_000;

export interface LiveUpdatesOptions {
  /** The websocket URL's query, read on every connection: `{ link }` or `{ deviceId }`. */
  query: () => Record<string, string>;
  /** The subscribe message, sent on every (re)connection (read then, e.g. the sequence the page has rendered). */
  subscribe: () => unknown;
  onNotice: (notice: TransactionUpdatedNotice) => void;
  /** The socket dropped: true reconnects, after the backoff. */
  reconnect: (event: CloseEvent) => boolean;
  /** Called once a reconnection is made, to catch up with what happened in between. */
  onReconnect: () => void;
}

export class LiveUpdates {
  #socket: WebSocket | null = null;

  constructor(private readonly options: LiveUpdatesOptions) {}

  /** Connects, unless a connection is open or opening. */
  open(attempt = 0): void {
    if (this.#socket && this.#socket.readyState <= WebSocket.OPEN) return;
    const url = new URL('/ws', location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    for (const [name, value] of Object.entries(this.options.query())) url.searchParams.set(name, value);
    const ws = new WebSocket(url);
    this.#socket = ws;
    ws.addEventListener('open', () => {
      attempt = 0;
      ws.send(JSON.stringify(this.options.subscribe()));
    });
    ws.addEventListener('message', (event) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const notice = parseWith(TransactionUpdatedNoticeWire, data);
      if (notice.ok) this.options.onNotice(notice.value);
    });
    ws.addEventListener('close', (event) => {
      if (this.#socket !== ws) return; // closed by the page, or replaced
      this.#socket = null;
      if (!this.options.reconnect(event)) return;
      setTimeout(
        () => {
          this.open(attempt + 1);
          this.options.onReconnect();
        },
        Math.min(RECONNECT_MAX_MS, 1000 * 2 ** attempt),
      );
    });
  }

  /** Disconnects, with no reconnection. */
  close(): void {
    const ws = this.#socket;
    this.#socket = null;
    ws?.close();
  }
}
