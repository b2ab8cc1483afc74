/**
 * db.transaction hands the events its transaction recorded to the pool's publisher after the commit (when every other
 * connection sees them), never before and never on rollback.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventNotice } from '../event-notice';
import { createTestDatabase, openTestPool, type TestDatabase } from '../test/database';
import { publishCommittedEvents, recordedEvent } from './after-commit';
import type { DatabaseHandle } from './client';

let database: TestDatabase;
let pool: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  pool = openTestPool(database.url, { max: 2 });
  await database.sql`create table after_commit_probe (id text primary key)`;
});
afterAll(async () => {
  await pool?.close();
  await database?.drop();
});

const noticeOf = (eventId: string): EventNotice => ({
  eventId,
  transactionId: 't',
  transactionNumber: 'T',
  merchantId: 'm',
  branchId: null,
  deviceId: null,
  sequence: 1,
  callback: false,
});

describe('events recorded in a transaction', () => {
  it('reach the publisher once the transaction committed, in the order recorded, and never when it rolled back', async () => {
    /** For each hand-over: its notices, and whether another connection saw the transaction's row at that moment. */
    const handed: { ids: string[]; visible: Promise<boolean> }[] = [];
    const stop = publishCommittedEvents(pool.db, {
      committed: (notices) => {
        const ids = notices.map((notice) => notice.eventId);
        handed.push({ ids, visible: database.sql`select 1 from after_commit_probe where id = ${ids[0]!}`.then((rows) => rows.length === 1) });
      },
    });
    try {
      await pool.db.transaction(async (tx) => {
        await tx.execute(sql`insert into after_commit_probe (id) values ('a')`);
        recordedEvent(tx, noticeOf('a'));
        recordedEvent(tx, noticeOf('a2'));
        expect(handed).toEqual([]);
      });
      await expect(
        pool.db.transaction(async (tx) => {
          await tx.execute(sql`insert into after_commit_probe (id) values ('b')`);
          recordedEvent(tx, noticeOf('b'));
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(handed.map((h) => h.ids)).toEqual([['a', 'a2']]);
      expect(await handed[0]!.visible).toBe(true);
    } finally {
      stop();
    }
  });

  it('outside a transaction, on the pool itself, reach the publisher at once (the statement has committed)', () => {
    const handed: string[] = [];
    const stop = publishCommittedEvents(pool.db, { committed: (notices) => handed.push(...notices.map((notice) => notice.eventId)) });
    try {
      recordedEvent(pool.db, noticeOf('c'));
      expect(handed).toEqual(['c']);
    } finally {
      stop();
    }
  });
});
