// Starting the reference server (reference-server.mjs) and driving its four calls like one lifecycle sequence.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { localSocketPath } from '../server/src/db/local-socket.ts';
import { applyMigrations } from '../server/src/db/migrate.ts';
import { isRunning, spawnTracked, stopChild } from './children.mjs';
import { connect, createDatabase, dropDatabase } from './database.mjs';
import { freePort, ROOT } from './server-process.mjs';

/**
 * A database of its own for the reference writing the service's rows (reference-rows.mjs), beside the one `databaseUrl`
 * names, on the same PostgreSQL: the service's schema, migrated as the service migrates it, and a merchant. Its rows,
 * dead row versions and vacuuming never meet the service's tables. `dispose()` drops it.
 * @param {string} databaseUrl
 */
export async function rowsReferenceDatabase(databaseUrl) {
  const url = new URL(databaseUrl);
  const name = `${decodeURIComponent(url.pathname.slice(1))}_rows`;
  await createDatabase(databaseUrl, name);
  url.pathname = `/${encodeURIComponent(name)}`;
  const dispose = () => dropDatabase(databaseUrl, name);
  try {
    await applyMigrations(url.href);
    // The merchant is a row for the rows' foreign keys, nothing more: the operator CLI (merchant.mjs) would want a
    // server's configuration for this database, which an embedded store has only inside its running server.
    const sql = connect(url.href, 1);
    try {
      const [merchant] = await sql`insert into merchants (name, hmac_secret) values ('Bench rows reference', ${randomBytes(32).toString('hex')}) returning id`;
      return { url: url.href, merchantId: /** @type {string} */ (merchant.id), dispose };
    } finally {
      await sql.end({ timeout: 2 });
    }
  } catch (error) {
    await dispose();
    throw error;
  }
}

/**
 * Started on the transport the service chooses for the same URL: PostgreSQL's Unix socket when it is local
 * (server/src/db/local-socket.ts), else TCP. `serviceRowsOf`: a merchant's id, to write the service's own rows for it
 * instead of `writesPerStep` (reference-rows.mjs).
 * @param {string} databaseUrl
 * @param {Record<string, number | number[]>} writesPerStep
 * @param {{ serviceRowsOf?: string }} [options]
 */
export async function startReferenceServer(databaseUrl, writesPerStep, { serviceRowsOf } = {}) {
  const port = await freePort();
  const socket = await localSocketPath(databaseUrl);
  const child = spawnTracked(
    serviceRowsOf ? 'reference-server-rows' : 'reference-server',
    process.execPath,
    [path.join(ROOT, 'bench', 'reference-server.mjs')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        REF_DATABASE_URL: databaseUrl,
        REF_SOCKET_PATH: socket ?? '',
        REF_PORT: String(port),
        REF_WRITES: JSON.stringify(writesPerStep),
        ...(serviceRowsOf ? { REF_ROWS: 'service', REF_MERCHANT_ID: serviceRowsOf } : {}),
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (!isRunning(child)) throw new Error(`the reference server exited (${child.signalCode ?? child.exitCode})`);
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error('the reference server did not answer within 30 s');
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: child.pid, stop: () => stopChild(child) };
}

/** The reference's version of a lifecycle sequence: the same four calls with bodies of similar size. */
/**
 * @param {import('./load-client.mjs').Connection} connection
 * @param {{ record?: (step: string, ms: number) => void }} [options]
 */
export async function runReferenceSequence(connection, { record } = {}) {
  const on = (step) => record && ((ms) => record(step, ms));
  const item = await connection.request('POST', '/ref/init', {
    body: { amount: 1000, isCent: true, currency: 'USD', methodType: 'authorize' },
    onTime: on('init'),
  });
  await connection.request('POST', `/ref/pay/${item.id}`, {
    body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' } },
    onTime: on('pay'),
  });
  await connection.request('GET', `/ref/items/${item.id}`, { onTime: on('status') });
  await connection.request('POST', `/ref/capture/${item.id}`, { body: { token: 'auth_0000000000000000000000000000000', amount: 1000 }, onTime: on('capture') });
}
