import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './db/embedded';
import { createTestDatabase } from './test/database';
import { TcpProxy } from './test/tcp-proxy';
import { finished, outputTail, spawnNode, waitForHealthy } from './test/process';

// SIGTERM with the database in each state, through a proxy the test controls: the process exits within
// SHUTDOWN_GRACE_MS + 2 s, with 0 when it finished its work and 1 when it had to abandon it.
const GRACE_MS = 1_000;
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
});

type DatabaseState = 'reachable' | 'gone' | 'refusing' | 'black-holed';

async function startThroughProxy(graceMs = GRACE_MS): Promise<{ proxy: TcpProxy; child: ReturnType<typeof spawnNode>; base: string; port: number }> {
  const database = await createTestDatabase({ max: 1 });
  cleanup.push(() => database.drop());
  const target = new URL(database.url);
  const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.start();
  cleanup.push(() => proxy.close());
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-shutdown-'));
  cleanup.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const child = spawnNode(['src/main.ts'], {
    DATABASE_URL: proxy.urlFor(database.url),
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_MS: String(graceMs),
  });
  cleanup.push(async () => child.exitCode === null && child.kill('SIGKILL'));
  const base = `http://127.0.0.1:${port}`;
  await waitForHealthy(`${base}/healthz`, child);
  return { proxy, child, base, port };
}

async function putDatabaseIn(proxy: TcpProxy, state: DatabaseState): Promise<void> {
  if (state === 'gone') {
    proxy.reset();
    await proxy.setMode('refuse');
  } else if (state === 'refusing') await proxy.setMode('refuse');
  else if (state === 'black-holed') await proxy.setMode('blackhole');
}

describe('SIGTERM', { timeout: 90_000 }, () => {
  it.each<DatabaseState>(['reachable', 'gone', 'refusing'])('with the database %s: the process exits within the grace period and 2 s', async (state) => {
    const { proxy, child, base } = await startThroughProxy();
    await putDatabaseIn(proxy, state);
    // Work in flight when the signal comes: requests that need the database.
    const inFlight = Array.from({ length: 4 }, () =>
      fetch(`${base}/healthz`).then(
        (r) => r.status,
        () => 'closed',
      ),
    );
    child.kill('SIGTERM');
    const exit = await finished(child, GRACE_MS + 2_000);
    const answers = await Promise.all(inFlight);
    for (const answer of answers) expect([200, 503, 'closed']).toContain(answer);
    if (state === 'reachable') {
      expect(exit.code, outputTail(exit)).toBe(0);
      expect(exit.stdout).toMatch(/"msg":"stopped"/);
    } else {
      // Gone or refusing, what waits on the database fails at once: the process stops on its own or at the deadline.
      expect([0, 1], outputTail(exit)).toContain(exit.code);
      if (exit.code === 1) expect(exit.stdout, outputTail(exit)).toMatch(/grace period over: abandoning work in flight/);
    }
    expect(exit.signal).toBeNull();
  });

  it('with the database black-holed and a query waiting on it: the deadline forces the exit (1) within the grace period and 2 s', async () => {
    const { proxy, child, base } = await startThroughProxy();
    await proxy.setMode('blackhole');
    // A request whose query the database will never answer (its deadlines, 11 s, are far past the grace period): the
    // signal comes only once the proxy holds that query, so stopping cleanly cannot finish in time.
    // An unknown key is looked up in the database: the first lookup on a connection sends the query's text.
    const held = proxy.queryHeld('"api_credentials"');
    const inFlight = fetch(`${base}/transactions/status-of-nothing`, { headers: { authorization: `Bearer sk_${'x'.repeat(40)}` } }).then(
      (r) => r.status,
      () => 'closed',
    );
    await held;
    child.kill('SIGTERM');
    const exit = await finished(child, GRACE_MS + 2_000);
    expect(exit.code, outputTail(exit)).toBe(1);
    expect(exit.signal).toBeNull();
    expect(exit.stdout).toMatch(/grace period over: abandoning work in flight/);
    expect(exit.stdout).not.toMatch(/"msg":"stopped"/);
    expect(['closed', 503]).toContain(await inFlight);
  });

  it('a connection opened before the signal and asked on after it gets its answer and is closed: the process exits 0', async () => {
    // The grace period is long here: the request below must come while the process is still stopping, whatever the load.
    const { child, port } = await startThroughProxy(60_000);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
    const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    child.kill('SIGTERM');
    // Only once the process has begun stopping: a connection with no request yet is not idle to the HTTP server, so
    // it stays open, and the request on it arrives while stopping. /livez is answered without waiting on anything.
    await new Promise<void>((resolve) => {
      const seen = () => child.output.stdout.includes('shutting down');
      if (seen()) return resolve();
      const onData = () => {
        if (!seen()) return;
        child.stdout?.off('data', onData);
        resolve();
      };
      child.stdout?.on('data', onData);
    });
    socket.write('GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const exit = await finished(child, 30_000);
    await socketClosed;
    expect(exit.code, outputTail(exit)).toBe(0);
    expect(exit.stdout).toMatch(/"msg":"stopped"/);
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    expect(response).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('a second signal exits at once, whatever is in flight', async () => {
    const { proxy, child } = await startThroughProxy();
    await proxy.setMode('blackhole');
    child.kill('SIGTERM');
    child.kill('SIGINT');
    const exit = await finished(child, GRACE_MS);
    expect(exit.code, outputTail(exit)).toBe(1);
    expect(exit.stdout).toMatch(/second signal: forcing exit/);
  });
});
