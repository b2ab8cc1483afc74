import type { TestDatabase } from './database';

/** Counts the statements that reach the store through `db` until `restore()` (drizzle's client, postgres.js's `unsafe`). */
export function countStatements(db: TestDatabase['db']): { counter: { reads: number }; restore: () => void } {
  const counter = { reads: 0 };
  const session = (db as unknown as { session: { client: { unsafe: (...args: unknown[]) => unknown } } }).session;
  const client = session.client;
  const original = client.unsafe.bind(client);
  client.unsafe = (...args: unknown[]) => {
    counter.reads += 1;
    return original(...args);
  };
  return { counter, restore: () => (client.unsafe = original) };
}
