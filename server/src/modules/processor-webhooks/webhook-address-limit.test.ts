import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../http/rate-limit';
import { startTestApp, type TestApp } from '../../test/app';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { ADYEN_WEBHOOK_PATH, STRIPE_WEBHOOKS_PATH } from '.';

let database: TestDatabase;
let app: TestApp;
let now = 0;
beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database, { limiter: new RateLimiter(1, 2, () => now) });
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe("the processors' webhooks", () => {
  it('are limited per address, each bucket refilling with time', async () => {
    for (const path of [STRIPE_WEBHOOKS_PATH, ADYEN_WEBHOOK_PATH]) {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await app.request(path, { body: { notificationItems: [] } })).status);
      // The first two are looked at (and refused: unsigned); the rest are not.
      expect(statuses.slice(2)).toEqual([429, 429]);
      expect(statuses.slice(0, 2)).not.toContain(429);
      now += 2000;
    }
  });
});
