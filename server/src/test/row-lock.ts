import type { DatabaseHandle } from '../db/client';

type Sql = DatabaseHandle['sql'];

export interface HeldRow {
  /** Lets the row go and resolves once the holding transaction has ended. */
  release(): Promise<void>;
}

/**
 * Holds a transaction's row locked (`select … for update` in an open database transaction), as a change being made on
 * it and not yet committed does, until `release()`; resolves once the lock is taken.
 */
export async function holdTransactionRow(sql: Sql, transactionNumber: string): Promise<HeldRow> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const lockedNow = new Promise<void>((resolve) => (locked = resolve));
  const done = sql.begin(async (tx) => {
    await tx`select id from transactions where transaction_number = ${transactionNumber} for update`;
    locked();
    await released;
  });
  await lockedNow;
  return {
    release: async () => {
      release();
      await done;
    },
  };
}

/** The backends of this database whose statement waits for a lock. */
export function lockWaitingBackends(sql: Sql): Promise<{ pid: number }[]> {
  return sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
}

/** Resolves once `count` statements wait for a lock in this database, or sooner once `instead()` holds. */
export async function lockWaiters(sql: Sql, count: number, instead: () => boolean = () => false): Promise<void> {
  while (!instead()) {
    if ((await lockWaitingBackends(sql)).length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
