import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { provisionTestMerchant } from '../test/fixtures';
import { CredentialCache } from './credential-cache';
import { hashCredential } from '../auth/credential-hash';
import { countStatements } from '../test/statement-counter';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('the credential cache', () => {
  it('reads a live credential once per time-to-live, and again after it', async () => {
    const m = await provisionTestMerchant(database.db);
    let now = 0;
    const cache = new CredentialCache(5_000, 100, () => now);
    const { counter, restore } = countStatements(database.db);
    try {
      const hash = hashCredential(m.apiKey);
      expect((await cache.find(database.db, hash))?.merchantId).toBe(m.merchantId);
      expect((await cache.find(database.db, hash))?.merchantId).toBe(m.merchantId);
      expect(counter.reads).toBe(1);
      now += 5_001;
      await cache.find(database.db, hash);
      expect(counter.reads).toBe(2);
    } finally {
      restore();
    }
  });

  it('never keeps an unknown key, and forgets a changed one', async () => {
    const m = await provisionTestMerchant(database.db);
    const cache = new CredentialCache(60_000);
    expect(await cache.find(database.db, hashCredential('sk_unknown'))).toBeNull();
    expect(cache.size).toBe(0);
    const hash = hashCredential(m.apiKey);
    await cache.find(database.db, hash);
    expect(cache.size).toBe(1);
    await database.sql`update api_credentials set revoked_at = now() where secret_hash = ${hash}`;
    expect((await cache.find(database.db, hash))?.merchantId).toBe(m.merchantId); // not told yet
    cache.forget(hash.toString('hex').toUpperCase());
    expect(await cache.find(database.db, hash)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('does not store a read that was under way when the credential was forgotten', async () => {
    const m = await provisionTestMerchant(database.db);
    const cache = new CredentialCache(60_000);
    const reading = cache.find(database.db, hashCredential(m.apiKey));
    cache.forget(hashCredential(m.apiKey).toString('hex'));
    expect((await reading)?.merchantId).toBe(m.merchantId);
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping the least recently stored', async () => {
    const merchants = await Promise.all([1, 2, 3].map(() => provisionTestMerchant(database.db)));
    const cache = new CredentialCache(60_000, 2);
    for (const m of merchants) await cache.find(database.db, hashCredential(m.apiKey));
    expect(cache.size).toBe(2);
  });

  it('with a time-to-live of 0 reads the store every time', async () => {
    const m = await provisionTestMerchant(database.db);
    const cache = new CredentialCache(0);
    const { counter, restore } = countStatements(database.db);
    try {
      await cache.find(database.db, hashCredential(m.apiKey));
      await cache.find(database.db, hashCredential(m.apiKey));
      expect(counter.reads).toBe(2);
      expect(cache.size).toBe(0);
    } finally {
      restore();
    }
  });
});
