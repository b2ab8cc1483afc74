// The browser tests' stand-in for the service's 3-D Secure (docs/integrating.md#3-d-secure-and-installments-in-the-widgets), run by the
// test runner's server (web-test-runner.base.mjs): a card payment with a challenge card answers 202 requires_action
// with a page of the answering origin, `/authentication/<id>`, the simulated bank page with "Complete authentication"
// and "Fail authentication"; `POST /authentication/<id>/cancel` (session token) fails it; and `/ws?session=<token>`
// follows the payment's transaction as the service's websocket does (a subscribe replays the current state, then live
// updates). Plain JavaScript: the runner's config loads it without a build.
import { makeTransaction } from './api-fixtures.js';

/** The challenge cards, and how the payment ends once the shopper completes the challenge. */
export const CHALLENGE_CARDS = { 4000000000003220: 'approved', 4000008400001629: 'card_declined' };

/** authentication id → { token, transaction, onComplete } */
const authentications = new Map();
/** transaction number → sockets subscribed to it */
const subscribers = new Map();
let counter = 0;
let sequence = 1;

/** A challenge card's payment: the transaction waits for the bank (15); the answer names the bank's page. */
export function startChallenge(body, authorization, origin) {
  counter += 1;
  const id = `auth_test${counter}`;
  const transaction = makeTransaction({
    amountCents: body.amount ?? 1050,
    currency: body.currency ?? 'USD',
    status: 15,
    statusName: 'AwaitingAuthentication',
    sequence: sequence++,
  });
  authentications.set(id, { token: authorization?.replace(/^Bearer /, '') ?? '', transaction, onComplete: CHALLENGE_CARDS[body.card.number] });
  return {
    status: 202,
    body: {
      status: 'requires_action',
      action: { type: 'three_d_secure', url: `${origin}/authentication/${id}` },
      transactionNumber: transaction.TransactionNumber,
    },
  };
}

function settle(entry, outcome) {
  if (entry.transaction.status !== 15) return entry.transaction;
  const declined = { status: 2, statusName: 'Declined', lastDeclineCode: outcome };
  const accepted = { status: 10, statusName: 'AwaitingCommit' };
  entry.transaction = { ...entry.transaction, ...(outcome === 'approved' ? accepted : declined), sequence: sequence++ };
  for (const socket of subscribers.get(entry.transaction.TransactionNumber) ?? []) send(socket, entry.transaction);
  return entry.transaction;
}

function send(socket, transaction) {
  socket.send(JSON.stringify({ type: 'transaction.updated', eventId: `evt_${transaction.sequence}`, sequence: transaction.sequence, transaction }));
}

const PAGE = (id, body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test bank</title></head><body><main><h1>Confirm the payment with your bank</h1>${body}</main></body></html>`;

async function readForm(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Middleware: the bank's page, its answer, and the widget's cancel. */
export async function fakeBank(ctx, next) {
  const match = /^\/authentication\/([A-Za-z0-9_]+)(\/cancel)?$/.exec(ctx.path);
  if (!match) return next();
  const [, id, cancel] = match;
  const entry = authentications.get(id);
  const origin = ctx.get('origin');
  if (cancel && origin) {
    ctx.set('access-control-allow-origin', origin);
    ctx.set('access-control-allow-headers', 'content-type, authorization');
    ctx.set('access-control-allow-methods', 'POST');
  }
  if (ctx.method === 'OPTIONS') {
    ctx.status = 204;
    return;
  }
  if (!entry) {
    ctx.status = 404;
    ctx.type = 'html';
    ctx.body = PAGE(id, '<p>Authentication not found</p>');
    return;
  }
  if (cancel) {
    if (ctx.method !== 'POST' || ctx.get('authorization') !== `Bearer ${entry.token}`) {
      ctx.status = 401;
      ctx.type = 'application/problem+json';
      ctx.body = JSON.stringify({ type: '/docs/errors#unauthorized', title: 'unauthorized', status: 401, code: 'unauthorized', requestId: 'req_test' });
      return;
    }
    entry.cancelled = true;
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(settle(entry, 'authentication_failed'));
    return;
  }
  ctx.type = 'html';
  if (ctx.method === 'POST') {
    const result = (await readForm(ctx.req)).get('result');
    settle(entry, result === 'complete' ? entry.onComplete : 'authentication_failed');
    ctx.body = PAGE(id, '<p>Authentication finished</p>');
    return;
  }
  ctx.body = PAGE(
    id,
    `<form method="post"><button name="result" value="complete">Complete authentication</button> <button name="result" value="fail">Fail authentication</button></form>`,
  );
}

/** What the tests may ask of an authentication: whether the widget cancelled it, and its transaction now. */
export async function fakeBankState(ctx, next) {
  const match = /^\/__fake-bank\/([A-Za-z0-9_]+)$/.exec(ctx.path);
  if (!match) return next();
  const entry = authentications.get(match[1]);
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(entry ? { cancelled: entry.cancelled === true, status: entry.transaction.status } : null);
}

/**
 * A dev-server plugin: `/ws?session=<token>` upgrades (the server's own web socket stays on its path). The `ws` server
 * class is the dev server's own (no dependency of ours).
 */
export function fakeBankSocket() {
  return {
    name: 'fake-bank-socket',
    serverStart({ server, webSockets }) {
      const WebSocketServer = webSockets.webSocketServer.constructor;
      const sockets = new WebSocketServer({ noServer: true });
      server.on('upgrade', (request, socket, head) => {
        const url = new URL(request.url, 'http://localhost');
        if (url.pathname !== '/ws') return;
        const token = url.searchParams.get('session');
        const entry = [...authentications.values()].find((candidate) => candidate.token === token);
        if (!entry) {
          socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
          return;
        }
        sockets.handleUpgrade(request, socket, head, (ws) => {
          ws.on('message', (data) => {
            let message;
            try {
              message = JSON.parse(String(data));
            } catch {
              return;
            }
            if (message.type !== 'subscribe' || message.transactionNumber !== entry.transaction.TransactionNumber) return;
            const set = subscribers.get(message.transactionNumber) ?? new Set();
            set.add(ws);
            subscribers.set(message.transactionNumber, set);
            ws.on('close', () => set.delete(ws));
            send(ws, entry.transaction);
          });
        });
      });
    },
  };
}
