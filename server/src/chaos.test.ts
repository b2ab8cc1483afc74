import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Status } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from './db/embedded';
import { startReceiver } from './test/callback-receiver';
import { createTestDatabase, type TestDatabase } from './test/database';
import { provisionTestMerchant } from './test/fixtures';
import { finished, spawnNode, waitForHealthy } from './test/process';
import { TcpProxy } from './test/tcp-proxy';

// The service as a process, on real PostgreSQL reached through a proxy the test controls, under lifecycle, payment and
// callback load while the database loses its backends, has its connections reset and is black-holed, ten rounds each:
// the process never exits, every request is answered (2xx, 503 with Retry-After, or 409 to a retry whose earlier
// attempt still holds its key; a payment the processor approved is never answered 502 for the database's fault),
// nothing committed is lost, every update still produces its callback, and service resumes once the database is
// back, without a restart.
const ROUNDS = 10;
/**
 * How long the test waits for service after the database is back. Alone it resumes within about a second (the probe
 * runs every 250 ms); this bound is generous so that a loaded machine does not fail the test: it proves that service
 * comes back without a restart, not how fast.
 */
const RESUME_BOUND_MS = 15_000;

let database: TestDatabase;
let proxy: TcpProxy;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let child: ReturnType<typeof spawnNode>;
let base: string;
let apiKey: string;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase({ max: 2 });
  const target = new URL(database.url);
  proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.start();
  receiver = await startReceiver();
  apiKey = (await provisionTestMerchant(database.db, 'Chaos Shop')).apiKey;
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-chaos-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawnNode(['src/main.ts'], {
    DATABASE_URL: proxy.urlFor(database.url),
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DATABASE_POOL_MAX: '4',
    DATABASE_STATEMENT_TIMEOUT_MS: '500',
    DATABASE_CONNECT_TIMEOUT_MS: '500',
    CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true',
    CALLBACK_RETRY_SCHEDULE_S: '1',
    RATE_LIMIT_PER_S: '100000',
    RATE_LIMIT_BURST: '100000',
    SHUTDOWN_GRACE_MS: '2000',
  });
  await waitForHealthy(`${base}/healthz`, child);
}, 60_000);

afterAll(async () => {
  await proxy?.setMode('forward');
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await finished(child, 10_000).catch(() => child.kill('SIGKILL'));
  }
  await receiver?.close();
  await proxy?.close();
  await database?.drop();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

interface Outcome {
  transactionNumber?: string;
  cancelled: boolean;
}

/**
 * Every answer the load got that was neither 2xx, nor 503 with Retry-After, nor 409 `idempotency_key_in_use`, and every
 * request that got none. The 409 is the answer a retry gets while the attempt before it still holds the key: when a
 * connection is reset, that attempt was answered 503 at once, but PostgreSQL rolls its transaction back (and frees
 * the key) only once its backend notices the connection is gone, which on a loaded machine can take longer than the
 * load's 50 ms between retries. The documented answer, and the client retries it as it retries a 503.
 */
const unanswered: string[] = [];

async function call(method: 'POST', pathname: string, body: unknown, key: string): Promise<{ status: number; body: Record<string, unknown> } | null> {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  }).catch((error: Error) => error);
  if (res instanceof Error) {
    // fetch's own message is only "fetch failed": what failed (refused, reset, timed out) is its cause.
    const cause = res.cause instanceof Error ? `: ${(res.cause as NodeJS.ErrnoException).code ?? ''} ${res.cause.message}` : '';
    unanswered.push(`${pathname} at ${Math.round(performance.now())} ms: ${res.message}${cause}`);
    return null;
  }
  const answer = { status: res.status, body: (await res.json()) as Record<string, unknown> };
  if (res.status === 503 && res.headers.get('retry-after') !== null) return answer;
  if (res.status === 409 && answer.body.code === 'idempotency_key_in_use') return answer;
  if (res.status < 200 || res.status > 299) unanswered.push(`${pathname} at ${Math.round(performance.now())} ms: ${res.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

/** A transaction created and cancelled, each step retried with its key while the answer is 503 (bounded). */
async function lifecycle(name: string): Promise<Outcome> {
  const outcome: Outcome = { cancelled: false };
  for (let attempt = 0; attempt < 40 && !outcome.transactionNumber; attempt++) {
    const answer = await call('POST', '/transactions/init', { amount: 1, currency: 'USD', callbackURL: `${receiver.url}/cb` }, `${name}-init`);
    if (answer?.status === 200) outcome.transactionNumber = answer.body.TransactionNumber as string;
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (let attempt = 0; attempt < 40 && outcome.transactionNumber && !outcome.cancelled; attempt++) {
    const answer = await call('POST', `/transactions/${outcome.transactionNumber}/cancel`, {}, `${name}-cancel`);
    if (answer?.status === 200) outcome.cancelled = true;
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return outcome;
}

interface LinkPayment {
  transactionNumber?: string;
  /** The consumer's payment's answer (null when there was none, or no link to pay). */
  status: number | null;
}

/**
 * A sale link created (retried with its key while the answer is 503) and paid once by the consumer. A 503 is not
 * retried: its payment may be in flight for the worker, under the key, and is then settled later.
 */
async function linkPayment(name: string): Promise<LinkPayment> {
  let created: Record<string, unknown> | undefined;
  for (let attempt = 0; attempt < 40 && !created; attempt++) {
    const answer = await call('POST', '/transactions/init', { amount: 2, currency: 'USD', callbackURL: `${receiver.url}/cb` }, `${name}-init`);
    if (answer?.status === 200) created = answer.body;
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!created) return { status: null };
  const linkId = (created.transactionPage as { qrURL: string }).qrURL.split('/pay/')[1]!;
  const card = { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' } };
  const paid = await call('POST', `/pay/${linkId}`, card, `${name}-pay`);
  return { transactionNumber: created.TransactionNumber as string, status: paid?.status ?? null };
}

async function backendPids(): Promise<number[]> {
  const rows = await database.sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${database.name} and pid <> pg_backend_pid()`;
  return rows.map((row) => row.pid);
}

/** Until the service answers a request that needs the database; how long that took. */
async function resumed(): Promise<number> {
  const started = performance.now();
  await vi.waitFor(async () => expect((await fetch(`${base}/healthz`)).status).toBe(200), { timeout: RESUME_BOUND_MS, interval: 25 });
  return performance.now() - started;
}

const faults = {
  'backends terminated': async () => {
    await database.sql`select pg_terminate_backend(pid) from pg_stat_activity where pid = any(${await backendPids()})`;
  },
  'connections reset': async () => proxy.reset(),
  'black-holed': async () => {
    await proxy.setMode('blackhole');
    await new Promise((resolve) => setTimeout(resolve, 300));
  },
} as const;

describe('chaos: the database misbehaves under load', () => {
  it('the process lives, every request is answered, nothing committed is lost, every update is called back', { timeout: 120_000 }, async () => {
    const outcomes: Promise<Outcome>[] = [];
    const payments: Promise<LinkPayment>[] = [];
    const resumeTimes: number[] = [];
    let n = 0;
    for (const [fault, inflict] of Object.entries(faults)) {
      for (let round = 0; round < ROUNDS; round++) {
        const load = Array.from({ length: 4 }, () => lifecycle(`chaos-${n++}`));
        outcomes.push(...load);
        payments.push(...Array.from({ length: 2 }, () => linkPayment(`chaos-${n++}`)));
        await inflict();
        await proxy.setMode('forward');
        const took = await resumed().catch((error: Error) => {
          throw new Error(
            `${fault}, round ${round}: not resumed: ${error.message}\nexit ${child.exitCode}\n${child.output.stdout.slice(-1500)}\n${child.output.stderr.slice(-2500)}`,
          );
        });
        resumeTimes.push(took);
        expect(child.exitCode, child.output.stderr).toBeNull();
      }
    }
    const done = await Promise.all(outcomes);
    const paid = await Promise.all(payments);
    console.info(
      `resumed after the database's return: median ${Math.round(resumeTimes.sort((a, b) => a - b)[Math.floor(resumeTimes.length / 2)]!)} ms, max ${Math.round(resumeTimes.at(-1)!)} ms`,
    );
    expect(child.exitCode, child.output.stderr).toBeNull();
    // An outage is an expected condition: it is logged at warn (once per outage, with a stable code), never as an error.
    const errorLines = child.output.stdout.split('\n').filter((line) => line.includes('"level":"error"') || line.includes('"level":"fatal"'));
    expect(errorLines).toEqual([]);
    expect(unanswered).toEqual([]);
    // Every lifecycle got through (retrying 503s with its key), and what was answered is what is stored.
    const cancelled = done.filter((o) => o.cancelled).map((o) => o.transactionNumber!);
    expect(cancelled).toHaveLength(done.length);
    const stored = await database.sql<{ transactionNumber: string; status: number }[]>`
      select transaction_number as "transactionNumber", status from transactions where transaction_number = any(${cancelled})`;
    expect(stored).toHaveLength(cancelled.length);
    expect(stored.every((row) => row.status === Status.Cancelled)).toBe(true);
    // Every payment answered 200 is stored paid, once.
    const approved = paid.filter((p) => p.status === 200).map((p) => p.transactionNumber!);
    expect(approved.length).toBeGreaterThan(0);
    const storedPaid = await database.sql<{ status: number; payments: number }[]>`
      select t.status, (select count(*) from payments p where p.transaction_id = t.id and p.status = 'succeeded')::int as payments
      from transactions t where t.transaction_number = any(${approved})`;
    expect(storedPaid).toHaveLength(approved.length);
    expect(storedPaid.every((row) => row.status === Status.Approved && row.payments === 1)).toBe(true);
    // Every update has its callback delivered: the receiver saw each transaction cancelled.
    await vi.waitFor(
      () => {
        const calledBack = new Set(
          receiver.received
            .map((r) => JSON.parse(r.body) as { TransactionNumber: string; status: number })
            .filter((t) => t.status === Status.Cancelled)
            .map((t) => t.TransactionNumber),
        );
        expect(cancelled.filter((number) => !calledBack.has(number))).toEqual([]);
      },
      { timeout: 20_000, interval: 100 },
    );
    // And every callback queued, of every update, is delivered in the end (retries included).
    await vi.waitFor(
      async () => {
        const undelivered = await database.sql<
          { state: string; attempts: number }[]
        >`select state, attempt_count as attempts from callback_deliveries where state <> 'succeeded'`;
        expect(undelivered).toEqual([]);
      },
      { timeout: 20_000, interval: 200 },
    );
  });
});
