import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventNotice } from '../event-notice';
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';

type Database = PostgresJsDatabase;

/** Where the events a database's transactions recorded go once each transaction has committed: the outbox publisher. */
export interface CommittedEvents {
  committed(notices: EventNotice[]): void;
}

/** The events recorded so far by the transaction running in this async context (none outside `db.transaction`). */
const recording = new AsyncLocalStorage<EventNotice[]>();
const sinks = new WeakMap<object, CommittedEvents[]>();

/**
 * Makes `db.transaction` hand the events its transaction recorded (`recordedEvent`) to the database's publisher after
 * the commit, never before and never on rollback: the update bus is told of a change only once it is committed, and
 * no notification is sent inside a money transaction. openDatabase applies it to every pool.
 */
export function publishingAfterCommit(db: Database): Database {
  const transaction = db.transaction.bind(db);
  db.transaction = (async (run: Parameters<Database['transaction']>[0], config?: Parameters<Database['transaction']>[1]) => {
    const recorded: EventNotice[] = [];
    const result = await recording.run(recorded, () => transaction(run, config));
    if (recorded.length > 0) sinks.get(db)?.[0]?.committed(recorded);
    return result;
  }) as Database['transaction'];
  return db;
}

/** A change recorded this event in `db`: published after its transaction commits (at once when `db` is the pool itself). */
export function recordedEvent(db: object, notice: EventNotice): void {
  const open = recording.getStore();
  if (open) open.push(notice);
  else sinks.get(db)?.[0]?.committed([notice]);
  // Otherwise (a transaction opened some other way, or no publisher on this pool) the publication sweep publishes it.
}

/** `sink` publishes what this pool's transactions commit, until the returned function is called. The first one registered does. */
export function publishCommittedEvents(db: Database, sink: CommittedEvents): () => void {
  const list = sinks.get(db) ?? [];
  sinks.set(db, [...list, sink]);
  return () => {
    const now = sinks.get(db) ?? [];
    sinks.set(
      db,
      now.filter((s) => s !== sink),
    );
  };
}
