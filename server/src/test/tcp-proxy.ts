import net from 'node:net';

export type ProxyMode = 'forward' | 'refuse' | 'blackhole';

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** Bytes that arrived while the proxy held them (blackhole), in order, with where they go. */
  held: { to: net.Socket; chunk: Buffer }[];
}

/**
 * A TCP proxy on loopback in front of PostgreSQL that a test controls, to make the database misbehave the way a
 * network does: `forward` passes bytes; `blackhole` keeps every connection open and accepts new ones but passes
 * nothing either way until forwarding resumes (held, not lost, as TCP would); `refuse` ends every connection (FIN)
 * and stops listening, so connects are refused; `reset()` resets every connection (RST).
 */
export class TcpProxy {
  #server: net.Server | null = null;
  #pairs = new Set<Pair>();
  #mode: ProxyMode = 'forward';
  #heldWaiters: { text: string; resolve: () => void }[] = [];
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  get mode(): ProxyMode {
    return this.#mode;
  }

  async start(): Promise<void> {
    await this.#listen(0);
  }

  /** The target URL with host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  async setMode(mode: ProxyMode): Promise<void> {
    const previous = this.#mode;
    this.#mode = mode;
    if (mode === 'refuse') {
      for (const pair of this.#pairs) this.#end(pair);
      await this.#unlisten();
      return;
    }
    if (previous === 'refuse') await this.#listen(this.port);
    if (mode === 'forward') {
      for (const pair of this.#pairs) {
        for (const { to, chunk } of pair.held.splice(0)) to.write(chunk);
      }
    }
  }

  /**
   * Resolves once the proxy holds (blackhole) a message from the service to the database that contains `text`: a
   * query the service sent and waits on, that nothing will answer until forwarding resumes.
   */
  queryHeld(text: string): Promise<void> {
    const already = [...this.#pairs].some((pair) => pair.held.some(({ to, chunk }) => to === pair.upstream && chunk.includes(text)));
    if (already) return Promise.resolve();
    return new Promise((resolve) => this.#heldWaiters.push({ text, resolve }));
  }

  /** Resets every open connection, as a failing network device would. */
  reset(): void {
    for (const { client, upstream } of this.#pairs) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    this.#pairs.clear();
  }

  async close(): Promise<void> {
    for (const pair of this.#pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    this.#pairs.clear();
    await this.#unlisten();
  }

  #end(pair: Pair): void {
    pair.client.end();
    pair.upstream.end();
    this.#pairs.delete(pair);
  }

  #accept(client: net.Socket): void {
    const upstream = net.connect(this.target);
    const pair: Pair = { client, upstream, held: [] };
    this.#pairs.add(pair);
    const forget = () => {
      this.#pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', forget);
      socket.on('close', forget);
    }
    const pass = (to: net.Socket) => (chunk: Buffer) => {
      if (this.#mode === 'forward') return void to.write(chunk);
      pair.held.push({ to, chunk });
      if (to !== upstream) return;
      for (const waiter of this.#heldWaiters) if (chunk.includes(waiter.text)) waiter.resolve();
      this.#heldWaiters = this.#heldWaiters.filter((waiter) => !chunk.includes(waiter.text));
    };
    client.on('data', pass(upstream));
    upstream.on('data', pass(client));
  }

  #listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const server = net.createServer((client) => this.#accept(client));
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.#server = server;
        this.port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }

  #unlisten(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}
