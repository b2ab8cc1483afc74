/**
 * A page's live connection to the service's websocket (`/ws` on the service's origin), shared by the hosted payment page
 * (`?link=`), the sandbox terminal simulator (`?deviceId=`) and the widgets following a payment's 3-D Secure
 * (`?session=`, transaction-follow.ts): it subscribes on every (re)connection, passes on each `transaction.updated`
 * message that its `notice` validator accepts, and reconnects after a drop with a backoff (1 s, doubling, at most 30 s)
 * unless the page says not to or closed it itself.
 */
import { parseWith, type TransactionUpdatedNoticeWire, type Infer, type Validator } from '@svc/protocol/light';

export type TransactionUpdatedNotice = Infer<typeof TransactionUpdatedNoticeWire>;

const RECONNECT_MAX_MS = 30_000;

export interface LiveUpdatesOptions<N> {
  /** The service's origin; the page's own when left out. */
  origin?: string;
  /** The websocket URL's query, read on every connection: `{ link }`, `{ deviceId }` or `{ session }`. */
  query: () => Record<string, string>;
  /** The subscribe message, sent on every (re)connection (read then, e.g. the sequence the page has rendered). */
  subscribe: () => unknown;
  /** What a message must be to be passed on (`TransactionUpdatedNoticeWire`, or one that keeps the transaction too). */
  notice: Validator<N>;
  onNotice: (notice: N) => void;
  /** The socket dropped: true reconnects, after the backoff. */
  reconnect: (event: CloseEvent) => boolean;
  /** Called once a reconnection is made, to catch up with what happened in between. */
  onReconnect?: () => void;
}

export class LiveUpdates<N> {
  #socket: WebSocket | null = null;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: LiveUpdatesOptions<N>) {}

  /** Connects, unless a connection is open or opening. */
  open(attempt = 0): void {
    if (this.#socket && this.#socket.readyState <= WebSocket.OPEN) return;
    const url = new URL('/ws', this.options.origin ?? location.href);
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
      const notice = parseWith(this.options.notice, data);
      if (notice.ok) this.options.onNotice(notice.value);
    });
    ws.addEventListener('close', (event) => {
      if (this.#socket !== ws) return; // closed by the page, or replaced
      this.#socket = null;
      if (!this.options.reconnect(event)) return;
      this.#reconnectTimer = setTimeout(
        () => {
          this.#reconnectTimer = undefined;
          this.open(attempt + 1);
          this.options.onReconnect?.();
        },
        Math.min(RECONNECT_MAX_MS, 1000 * 2 ** attempt),
      );
    });
  }

  /** Disconnects, with no reconnection (one waiting for its backoff is called off). */
  close(): void {
    clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = undefined;
    const ws = this.#socket;
    this.#socket = null;
    ws?.close();
  }
}
