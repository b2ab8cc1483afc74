import { WEBSOCKET_PATH, WsServerMessageSchema, type Transaction } from '@svc/protocol';
import WebSocket from 'ws';
import type { MerchantService } from './merchant-service';

export type LiveState = 'connecting' | 'connected' | 'stopped';

/**
 * The shop backend's websocket to the service: it authenticates with the API key (Bearer, from this server only),
 * subscribes to every update of the merchant and hands each transaction to `onUpdate`. After a reconnect it asks
 * `onReconnect` to catch up with what it may have missed (a scope subscription does not replay).
 */
export class LiveRelay {
  state: LiveState = 'stopped';
  #socket: WebSocket | null = null;
  #timer: NodeJS.Timeout | null = null;
  #attempt = 0;

  constructor(
    private readonly serviceUrl: string,
    private readonly service: MerchantService,
    private readonly onUpdate: (transaction: Transaction) => void,
    private readonly onReconnect: () => void,
  ) {}

  start(): void {
    if (this.state !== 'stopped') return;
    this.state = 'connecting';
    void this.#connect();
  }

  stop(): void {
    this.state = 'stopped';
    if (this.#timer) clearTimeout(this.#timer);
    this.#socket?.close(1000);
    this.#socket = null;
  }

  async #connect(): Promise<void> {
    if (this.state === 'stopped') return;
    const merchant = await this.service.credentials.current().catch(() => null);
    if (!merchant) return this.#retry();
    const url = `${this.serviceUrl.replace(/^http/, 'ws')}${WEBSOCKET_PATH}`;
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${merchant.apiKey}` } });
    this.#socket = socket;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', scope: 'merchant' })));
    socket.on('message', (data) => {
      let parsed;
      try {
        parsed = WsServerMessageSchema.safeParse(JSON.parse(data.toString()));
      } catch {
        return;
      }
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'subscribed') {
        this.state = 'connected';
        this.#attempt = 0;
        this.onReconnect();
      } else if (message.type === 'transaction.updated') {
        this.onUpdate(message.transaction);
      }
    });
    socket.on('error', () => undefined); // 'close' follows and retries
    socket.on('close', () => {
      if (this.#socket === socket) this.#socket = null;
      if (this.state !== 'stopped') {
        this.state = 'connecting';
        this.#retry();
      }
    });
  }

  #retry(): void {
    if (this.state === 'stopped') return;
    const delay = Math.min(5000, 250 * 2 ** this.#attempt++);
    this.#timer = setTimeout(() => void this.#connect(), delay);
  }
}
