import { describe, expect, it } from 'vitest';
import { loadEnv } from '../env';
import { createLogger } from '../logger';
import { startExpiryWorker } from '../modules/expiry/expiry-worker';
import { SandboxClock } from '../modules/sandbox/sandbox-clock';
import { SandboxProcessor } from '../processor/sandbox-processor';
import { useTestApp, UNTHROTTLED } from '../test/harness';
import { EXPIRED_KEYS_BATCH, forgetExpiredKeys } from '../mutations/expired-keys';
import { deleteExpiredKeys } from '../mutations/idempotency-keys.queries';

/** An expired Idempotency-Key is deleted, its answer and its request fingerprint with it. */
const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Forgetful Shop' });

const newKey = (name: string) => `${name}-${Math.random().toString(36).slice(2)}`;

async function storedKeys(...keys: string[]): Promise<string[]> {
  const rows = await t.database.sql<{ key: string }[]>`
    select key from idempotency_keys where merchant_id = ${t.merchant.merchantId} and key in ${t.database.sql(keys)} order by key`;
  return rows.map((row) => row.key);
}

describe('expired Idempotency-Keys', () => {
  it('are deleted by the expiry worker once the clock passes their 24 hours; the others stay and still replay', async () => {
    const [old, young] = [newKey('old'), newKey('young')];
    const first = await t.client.init({ amount: 2, currency: 'USD' }, { 'idempotency-key': old });
    expect(first.status).toBe(200);
    await t.client.advanceClock(12 * 3600);
    const second = await t.client.init({ amount: 3, currency: 'USD' }, { 'idempotency-key': young });
    expect(second.status).toBe(200);
    // Move the shared clock without the endpoint's own sweep, so that only the worker can delete anything.
    const clock = new SandboxClock(t.database.db);
    await t.database.db.transaction((tx) => clock.advance(12 * 3600 + 1, tx));
    expect(await storedKeys(old, young)).toEqual([old, young].sort());

    const worker = startExpiryWorker({
      db: t.database.db,
      processor: new SandboxProcessor(),
      clock,
      env: loadEnv({}),
      baseUrl: loadEnv({}).PUBLIC_BASE_URL,
      logger: createLogger({ level: 'silent' }),
      intervalMs: 20,
    });
    try {
      await expect.poll(() => storedKeys(old), { timeout: 5000 }).toEqual([]);
    } finally {
      await worker.stop();
    }
    expect(await storedKeys(young)).toEqual([young]);
    const replay = await t.client.init({ amount: 3, currency: 'USD' }, { 'idempotency-key': young });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.TransactionNumber).toBe(second.body.TransactionNumber);
    const anew = await t.client.init({ amount: 2, currency: 'USD' }, { 'idempotency-key': old });
    expect(anew.headers.get('idempotent-replayed')).toBeNull();
    expect(anew.body.TransactionNumber).not.toBe(first.body.TransactionNumber);
  });

  it('are deleted in bounded batches, every one expired by then and none other', async () => {
    const now = t.app.clock.now();
    const at = (hoursFromNow: number) => new Date(now.getTime() + hoursFromNow * 3600 * 1000).toISOString();
    const expired = 2 * EXPIRED_KEYS_BATCH + 7;
    await t.database.sql`
      insert into idempotency_keys (merchant_id, key, request_hash, response_status, response_body, created_at, expires_at)
      select ${t.merchant.merchantId}, 'batch-expired-' || n, '\\x00'::bytea, 200, '{}', ${at(-30)}::timestamptz, ${at(-6)}::timestamptz - n * interval '1 second'
      from generate_series(1, ${expired}) as n`;
    await t.database.sql`
      insert into idempotency_keys (merchant_id, key, request_hash, response_status, response_body, created_at, expires_at)
      values (${t.merchant.merchantId}, 'batch-live', '\\x00'::bytea, 200, '{}', ${at(-1)}::timestamptz, ${at(23)}::timestamptz)`;
    const count = async (pattern: string) =>
      (await t.database.sql<{ n: number }[]>`select count(*)::int as n from idempotency_keys where key like ${pattern}`)[0]!.n;

    // One statement deletes no more than it is given; the sweep goes on until none is left.
    expect(await deleteExpiredKeys(t.database.db, now, 10)).toBe(10);
    expect(await forgetExpiredKeys(t.database.db, now)).toBe(expired - 10);
    expect(await count('batch-expired-%')).toBe(0);
    expect(await count('batch-live')).toBe(1);
    expect(await forgetExpiredKeys(t.database.db, now)).toBe(0);
  });
});
