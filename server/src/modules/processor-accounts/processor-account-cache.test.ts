import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { provisionTestMerchant } from '../../test/fixtures';
import type { Listener } from '../../db/resilient-listener';
import { forgetChangedProcessorAccounts, ProcessorAccountCache } from './processor-account-cache';
import { saveProcessorAccount } from './processor-accounts.queries';
import { countStatements } from '../../test/statement-counter';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function connected(name?: string) {
  const merchant = await provisionTestMerchant(database.db, name);
  await saveProcessorAccount(database.db, {
    merchantId: merchant.merchantId,
    kind: 'stripe',
    hint: 'sk_test_…1234',
    sealedCredentials: 'sealed',
    updatedAt: new Date(),
  });
  return merchant.merchantId;
}

describe('the processor account cache', () => {
  it('keeps an account for its time-to-live, reads it once, and again after it', async () => {
    const merchantId = await connected();
    let now = 0;
    const cache = new ProcessorAccountCache(5_000, 100, () => now);
    const { counter, restore } = countStatements(database.db);
    try {
      expect((await cache.find(database.db, merchantId))?.kind).toBe('stripe');
      expect((await cache.find(database.db, merchantId))?.kind).toBe('stripe');
      expect(counter.reads).toBe(1);
      now += 4_999;
      await cache.find(database.db, merchantId);
      expect(counter.reads).toBe(1);
      now += 2;
      await cache.find(database.db, merchantId);
      expect(counter.reads).toBe(2);
    } finally {
      restore();
    }
  });

  it('keeps "no account of its own" too', async () => {
    const merchant = await provisionTestMerchant(database.db);
    const cache = new ProcessorAccountCache(60_000);
    const { counter, restore } = countStatements(database.db);
    try {
      expect(await cache.find(database.db, merchant.merchantId)).toBeNull();
      expect(await cache.find(database.db, merchant.merchantId)).toBeNull();
      expect(counter.reads).toBe(1);
      expect(cache.size).toBe(1);
    } finally {
      restore();
    }
  });

  it('reads a forgotten account again, and every account after a clear', async () => {
    const merchantId = await connected();
    const none = (await provisionTestMerchant(database.db)).merchantId;
    const cache = new ProcessorAccountCache(60_000);
    await cache.find(database.db, merchantId);
    await cache.find(database.db, none);
    await database.sql`update processor_accounts set kind = 'adyen' where merchant_id = ${merchantId}`;
    expect((await cache.find(database.db, merchantId))?.kind).toBe('stripe'); // not told yet
    cache.forget(merchantId.toUpperCase());
    expect(cache.size).toBe(1);
    expect((await cache.find(database.db, merchantId))?.kind).toBe('adyen');

    await saveProcessorAccount(database.db, { merchantId: none, kind: 'stripe', hint: 'h', sealedCredentials: 's', updatedAt: new Date() });
    await database.sql`delete from processor_accounts where merchant_id = ${merchantId}`;
    cache.clear();
    expect(cache.size).toBe(0);
    expect(await cache.find(database.db, merchantId)).toBeNull();
    expect((await cache.find(database.db, none))?.kind).toBe('stripe');
  });

  it('does not store a read that was under way when an account was forgotten', async () => {
    const merchantId = await connected();
    const cache = new ProcessorAccountCache(60_000);
    const reading = cache.find(database.db, merchantId);
    cache.forget('00000000-0000-0000-0000-000000000000');
    expect((await reading)?.kind).toBe('stripe');
    expect(cache.size).toBe(0);
    const clearedDuring = cache.find(database.db, merchantId);
    cache.clear();
    await clearedDuring;
    expect(cache.size).toBe(0);
    await cache.find(database.db, merchantId);
    expect(cache.size).toBe(1);
  });

  it('never keeps what a transaction that changed an account reads of it: it may be rolled back', async () => {
    const merchant = await provisionTestMerchant(database.db);
    const cache = new ProcessorAccountCache(60_000);
    const undone = new Error('test: rolled back');
    await expect(
      database.db.transaction(async (tx) => {
        await saveProcessorAccount(tx, { merchantId: merchant.merchantId, kind: 'adyen', hint: 'h', sealedCredentials: 's', updatedAt: new Date() });
        expect((await cache.find(tx, merchant.merchantId))?.kind).toBe('adyen');
        throw undone;
      }),
    ).rejects.toBe(undone);
    expect(cache.size).toBe(0);
    expect(await cache.find(database.db, merchant.merchantId)).toBeNull();
    // A transaction that changed nothing keeps what it reads.
    await database.db.transaction(async (tx) => {
      await cache.find(tx, (await provisionTestMerchant(database.db)).merchantId);
    });
    expect(cache.size).toBe(2);
  });

  it('keeps at most maxEntries, dropping the least recently stored', async () => {
    const ids = await Promise.all([1, 2, 3].map(async () => (await provisionTestMerchant(database.db)).merchantId));
    const cache = new ProcessorAccountCache(60_000, 2);
    for (const id of ids) await cache.find(database.db, id);
    expect(cache.size).toBe(2);
    const { counter, restore } = countStatements(database.db);
    try {
      await cache.find(database.db, ids[2]!);
      await cache.find(database.db, ids[1]!);
      expect(counter.reads).toBe(0);
      await cache.find(database.db, ids[0]!);
      expect(counter.reads).toBe(1);
    } finally {
      restore();
    }
  });

  it('with a time-to-live of 0 reads the store every time', async () => {
    const merchantId = await connected();
    const cache = new ProcessorAccountCache(0);
    const { counter, restore } = countStatements(database.db);
    try {
      await cache.find(database.db, merchantId);
      await cache.find(database.db, merchantId);
      expect(counter.reads).toBe(2);
      expect(cache.size).toBe(0);
    } finally {
      restore();
    }
  });
});

describe("the processor accounts' notices", () => {
  /** A listener the test speaks for: `notify` as the trigger would, `reconnect` as after a lost connection. */
  function fakeListener() {
    let registration: { onNotify(payload: string): void; onListen?: (() => void) | undefined } | null = null;
    const listener: Listener = {
      listen: (_channel, onNotify, onListen) => {
        registration = { onNotify, onListen };
        onListen?.();
        return Promise.resolve({ unlisten: () => Promise.resolve() });
      },
    };
    return { listener, notify: (payload: string) => registration!.onNotify(payload), reconnect: () => registration!.onListen?.() };
  }

  it('forget the merchant a notice names, everything for anything else, and everything after a reconnect', async () => {
    const [one, two] = [await connected(), await connected()];
    const cache = new ProcessorAccountCache(60_000);
    const { listener, notify, reconnect } = fakeListener();
    await forgetChangedProcessorAccounts(listener, cache);
    const fill = async () => {
      await cache.find(database.db, one);
      await cache.find(database.db, two);
    };
    await fill();
    expect(cache.size).toBe(2);
    notify(one);
    expect(cache.size).toBe(1);
    notify('*');
    expect(cache.size).toBe(0);
    await fill();
    reconnect();
    expect(cache.size).toBe(0);
  });

  it('are sent by the trigger with the merchant for an insert, an update and a delete, and with * for a truncate', async () => {
    const merchantId = await connected();
    const heard: string[] = [];
    const listening = await database.listener.listen('svc_processor_accounts', (payload) => heard.push(payload));
    try {
      await database.sql`update processor_accounts set hint = 'x' where merchant_id = ${merchantId}`;
      await database.sql`delete from processor_accounts where merchant_id = ${merchantId}`;
      await database.sql`truncate processor_accounts`;
      const other = await connected();
      await expect.poll(() => heard).toEqual([merchantId, merchantId, '*', other]);
    } finally {
      await listening.unlisten();
    }
  });
});
