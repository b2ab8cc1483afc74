// A merchant's callback endpoint on loopback, in a process of its own so that the load client's work never delays
// a receipt's timestamp. It answers 200 at once and keeps, per receipt, when it arrived, the update's `updatedAt`
// from the body and the `webhook-id`. The parent talks to it over IPC: `reset`, `count`, `report`.
import http from 'node:http';

/** @type {[receivedAt: number, updatedAt: number, webhookId: string][]} */
let receipts = [];

/** Replies to the parent (this process always runs with an IPC channel). */
const send = (/** @type {object} */ message) => process.send?.(message);

const server = http.createServer((req, res) => {
  /** @type {Buffer[]} */
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const receivedAt = Date.now();
    const body = Buffer.concat(chunks).toString('utf8');
    const updatedAt = /"updatedAt":"([^"]+)"/.exec(body)?.[1];
    receipts.push([receivedAt, updatedAt ? Date.parse(updatedAt) : NaN, String(req.headers['webhook-id'] ?? '')]);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
server.keepAliveTimeout = 65_000;

process.on('message', (/** @type {{ type: string }} */ message) => {
  if (message.type === 'reset') {
    receipts = [];
    send({ type: 'reset' });
  } else if (message.type === 'count') {
    send({ type: 'count', count: receipts.length });
  } else if (message.type === 'report') {
    send({ type: 'report', receipts });
  }
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => server.close(() => process.exit(0)));

server.listen(0, '127.0.0.1', () => send({ type: 'listening', port: /** @type {import('node:net').AddressInfo} */ (server.address()).port }));
