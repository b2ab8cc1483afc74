import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Behaviour = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export const answer =
  (status: number, delayMs = 0): Behaviour =>
  (_req, res) => {
    setTimeout(() => res.writeHead(status).end('ok'), delayMs);
  };

/** A merchant's callback endpoint on loopback that records what reaches it. */
export async function startReceiver(behaviour: Behaviour = answer(200)) {
  const received: Received[] = [];
  let current = behaviour;
  let connections = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() });
      current(req, res);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    get connections() {
      return connections;
    },
    behave(next: Behaviour) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A TCP listener that only counts connections: proof that nothing reached it. */
export async function startCanary(host: '127.0.0.1' | '::1') {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
