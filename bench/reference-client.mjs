// Starting the reference server (reference-server.mjs) and driving its four calls like one lifecycle sequence.
import path from 'node:path';
import { localSocketPath } from '../server/src/db/local-socket.ts';
import { isRunning, spawnTracked, stopChild } from './children.mjs';
import { freePort, ROOT } from './server-process.mjs';

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
