import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ProvisionedMerchant, Transaction } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/embedded';
import { answer, startReceiver } from '../../test/callback-receiver';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { provisionTestMerchant } from '../../test/fixtures';
import { finished, spawnNode, waitForHealthy } from '../../test/process';

/** The outbox survives the process: SIGKILL the server mid-delivery, start it again, and nothing is lost. */
let database: TestDatabase;
let merchant: ProvisionedMerchant;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  merchant = await provisionTestMerchant(database.db, 'Restart Shop');
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-restart-'));
});
afterAll(async () => {
  await database.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

describe('a server killed while deliveries are pending', () => {
  it('delivers every one of 1,000 events at least once after it starts again, duplicates carrying their original webhook-id', async () => {
    const EVENTS = 1000;
    // The endpoint answers the first 50 attempts and holds every answer after them, so that deliveries are still
    // pending when the server is killed however fast it sends (waiting for the kill to race the dispatcher would not).
    let answered = 0;
    const merchantEnd = await startReceiver((req, res) => {
      if (answered++ < 50) answer(200, 15)(req, res);
    });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true',
      CALLBACK_TIMEOUT_MS: '1000',
      RATE_LIMIT_PER_S: '100000',
      RATE_LIMIT_BURST: '100000',
    };
    const headers = { authorization: `Bearer ${merchant.apiKey}`, 'content-type': 'application/json' };
    let server = spawnNode(['src/main.ts'], env);
    try {
      await waitForHealthy(`${base}/healthz`, server);
      // 1,000 updates: each transaction is created (no callback) and then cancelled (one callback each).
      const numbers: string[] = [];
      await inBatches(
        Array.from({ length: EVENTS }, (_, i) => i),
        25,
        async () => {
          const res = await fetch(`${base}/transactions/init`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ amount: 1, currency: 'USD', callbackURL: `${merchantEnd.url}/cb` }),
          });
          numbers.push(((await res.json()) as Transaction).TransactionNumber);
        },
      );
      await inBatches(numbers, 25, async (n) => {
        const res = await fetch(`${base}/transactions/${n}/cancel`, { method: 'POST', headers });
        expect(res.status).toBe(200);
      });
      await expect.poll(() => merchantEnd.received.length, { timeout: 30_000, interval: 20 }).toBeGreaterThan(50);
      server.kill('SIGKILL');
      await finished(server);
      const beforeRestart = new Set(merchantEnd.received.map((r) => r.headers['webhook-id'])).size;
      expect(beforeRestart).toBeLessThan(EVENTS);

      merchantEnd.behave(answer(200, 15));
      server = spawnNode(['src/main.ts'], env);
      await waitForHealthy(`${base}/healthz`, server);
      await expect.poll(() => new Set(merchantEnd.received.map((r) => r.headers['webhook-id'])).size, { timeout: 60_000, interval: 100 }).toBe(EVENTS);

      const events = await database.sql<{ id: string; transaction_number: string }[]>`
        select d.event_id as id, t.transaction_number from callback_deliveries d join transactions t on t.id = d.transaction_id
        where d.merchant_id = ${merchant.merchantId}`;
      expect(events).toHaveLength(EVENTS);
      const numberOfEvent = new Map(events.map((e) => [e.id, e.transaction_number]));
      for (const hit of merchantEnd.received) {
        const id = hit.headers['webhook-id'] as string;
        // Every request, duplicate or not, is the event it says it is.
        expect(numberOfEvent.get(id)).toBe((JSON.parse(hit.body) as Transaction).TransactionNumber);
      }
      const duplicates = merchantEnd.received.length - EVENTS;
      console.info(`restart: ${beforeRestart} events delivered before SIGKILL, ${duplicates} duplicate deliveries after restart`);
    } finally {
      server.kill('SIGTERM');
      await finished(server, 20_000).catch(() => server.kill('SIGKILL'));
      await merchantEnd.close();
    }
  }, 180_000);
});
