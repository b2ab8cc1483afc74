/**
 * A WebSocket double for the browser tests of what follows the service's websocket: installed in place of the
 * window's `WebSocket`, it records every socket made and what it was sent, and the test plays the server (`accept`,
 * `receive`, `drop`). Events are dispatched at once, so a test needs no waiting. Reconnection timers are caught by
 * `catchTimers` and run by the test, not by the clock.
 */
export class FakeWebSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static made: FakeWebSocket[] = [];

  readonly url: URL;
  readonly sent: unknown[] = [];
  readyState = FakeWebSocket.CONNECTING;
  closedByClient = false;

  constructor(url: string | URL) {
    super();
    this.url = new URL(url);
    FakeWebSocket.made.push(this);
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(): void {
    if (this.readyState === FakeWebSocket.CLOSED) return;
    this.closedByClient = true;
    this.readyState = FakeWebSocket.CLOSED;
    this.dispatchEvent(new CloseEvent('close', { code: 1005 }));
  }

  /** The server accepts the connection. */
  accept(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.dispatchEvent(new Event('open'));
  }

  /** The server sends `message` (JSON) or a text frame as it is. */
  receive(message: unknown): void {
    this.dispatchEvent(new MessageEvent('message', { data: typeof message === 'string' ? message : JSON.stringify(message) }));
  }

  /** The server closes the connection with `code`. */
  drop(code: number): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.dispatchEvent(new CloseEvent('close', { code }));
  }
}

/** Puts FakeWebSocket in place of `WebSocket` until the returned function is called. */
export function installFakeWebSocket(): () => void {
  const real = window.WebSocket;
  FakeWebSocket.made = [];
  window.WebSocket = FakeWebSocket as unknown as typeof WebSocket;
  return () => {
    window.WebSocket = real;
  };
}

export interface CaughtTimer {
  readonly ms: number;
  /** Runs the callback, as the clock would have. */
  run(): void;
}

/**
 * Puts a recorder in place of the window's `setTimeout` and `clearTimeout` until `restore`: callbacks are kept, not
 * scheduled; `pending` lists those not cleared. Only for synchronous code under test (waitFor needs the real timers).
 */
export function catchTimers(): { pending: () => CaughtTimer[]; restore: () => void } {
  const realSet = window.setTimeout;
  const realClear = window.clearTimeout;
  const timers = new Map<number, CaughtTimer>();
  let next = 1;
  window.setTimeout = ((callback: () => void, ms = 0) => {
    const id = next++;
    timers.set(id, { ms, run: () => (timers.delete(id), callback()) });
    return id;
  }) as typeof window.setTimeout;
  window.clearTimeout = ((id?: number) => void timers.delete(id ?? 0)) as typeof window.clearTimeout;
  return {
    pending: () => [...timers.values()],
    restore: () => {
      window.setTimeout = realSet;
      window.clearTimeout = realClear;
    },
  };
}
