// A counting TCP proxy between a server and PostgreSQL: it reads the client side of the wire protocol and counts,
// per request, the SQL statements executed and the round trips (every Sync, Flush or simple Query makes the
// client wait for PostgreSQL's answer). Work that is not a request (the expiry sweeps, the callback dispatcher's
// polls, the sandbox clock refresh: every statement with FOR UPDATE SKIP LOCKED or on sandbox_clock, and the
// transactions holding one; the driver's type lookup on a new connection) is counted apart, so background ticks
// during a step do not blur the counts.
import net from 'node:net';

const BACKGROUND = /skip locked|"?sandbox_clock"?|pg_catalog\.pg_type/i;

function cstring(buffer, offset) {
  const end = buffer.indexOf(0, offset);
  return [buffer.toString('utf8', offset, end), end + 1];
}

export async function startWireCounter(targetHost, targetPort) {
  // Requests' statement texts in the order they ran (shortened; the strings are shared, so this stays small).
  const log = [];
  const totals = { requests: { statements: 0, roundTrips: 0 }, background: { statements: 0, roundTrips: 0 } };
  const sockets = new Set();

  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);

    let pending = Buffer.alloc(0);
    let startup = true;
    const names = new Map();
    let unnamed = '';
    let bound = '';
    let inTransaction = false;
    /** @type {{ texts: string[], background: boolean, statements: number, roundTrips: number }} */
    let unit = { texts: [], background: false, statements: 0, roundTrips: 0 };
    const flush = () => {
      if (unit.statements === 0 && unit.roundTrips === 0) return;
      const side = unit.background ? totals.background : totals.requests;
      side.statements += unit.statements;
      side.roundTrips += unit.roundTrips;
      if (side === totals.requests) log.push(...unit.texts);
      unit = { texts: [], background: false, statements: 0, roundTrips: 0 };
    };
    const statement = (text) => {
      if (/^\s*begin\b/i.test(text)) {
        if (!inTransaction) flush();
        inTransaction = true;
      }
      if (BACKGROUND.test(text)) unit.background = true;
      unit.texts.push(text.replace(/\s+/g, ' ').trim().slice(0, 160));
      unit.statements += 1;
      if (/^\s*(commit|rollback)\b/i.test(text)) inTransaction = false;
    };

    client.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (startup) {
          if (pending.length < 8) return;
          const length = pending.readUInt32BE(0);
          if (pending.length < length) return;
          const code = pending.readUInt32BE(4);
          pending = pending.subarray(length);
          if (code === 196608) startup = false; // protocol 3.0 start-up; SSL and GSS requests come before it
          continue;
        }
        if (pending.length < 5) return;
        const type = String.fromCharCode(pending[0]);
        const length = pending.readUInt32BE(1);
        if (pending.length < 1 + length) return;
        const body = pending.subarray(5, 1 + length);
        pending = pending.subarray(1 + length);
        if (type === 'Q') {
          statement(cstring(body, 0)[0]);
          unit.roundTrips += 1;
          if (!inTransaction) flush();
        } else if (type === 'P') {
          const [name, next] = cstring(body, 0);
          const [text] = cstring(body, next);
          if (name) names.set(name, text);
          else unnamed = text;
        } else if (type === 'B') {
          const [, next] = cstring(body, 0);
          const [name] = cstring(body, next);
          bound = name ? (names.get(name) ?? '') : unnamed;
        } else if (type === 'E') {
          statement(bound);
        } else if (type === 'H') {
          unit.roundTrips += 1;
        } else if (type === 'S') {
          unit.roundTrips += 1;
          if (!inTransaction) flush();
        }
      }
    });
  });
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve())));
  return {
    port: /** @type {import('node:net').AddressInfo} */ (server.address()).port,
    /** Counts so far (requests only); subtract two of them for a step. */
    read: () => ({ ...totals.requests, logLength: log.length }),
    /** The statements run between two reads, in the order they first ran, with how often each ran. */
    textsBetween(before, after) {
      const counts = new Map();
      for (const text of log.slice(before.logLength, after.logLength)) counts.set(text, (counts.get(text) ?? 0) + 1);
      return counts;
    },
    close: () =>
      /** @type {Promise<void>} */ (
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        })
      ),
  };
}
