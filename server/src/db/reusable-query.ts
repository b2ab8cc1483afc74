import type { Queryable } from './client';

/** A drizzle query builder that can be prepared (select, insert, update, delete). */
interface Preparable<R> {
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> };
}

/**
 * A query whose SQL drizzle builds once. Turning a query builder into SQL text takes a large share of the server's
 * CPU when it happens on every call (BENCHMARKS.md, the lifecycle profile), and drizzle's own `.prepare()` binds the
 * built query to the pool or transaction that built it, so it cannot run inside a transaction opened later. This
 * keeps the built query (its SQL, parameter slots and result mapping) and runs it on whatever pool or transaction
 * each call passes. Values go in through `sql.placeholder(name)` slots, as the driver takes them: they skip the
 * column's own mapping, so pass strings for timestamps.
 */
export function reusableQuery<R>(name: string, build: (db: Queryable) => Preparable<R>): (db: Queryable, values: Record<string, unknown>) => Promise<R> {
  let prepared: object | undefined;
  return (db, values) => {
    prepared ??= build(db).prepare(name);
    // The prepared query reads its driver client from `this.client`: an object on top of it with another client
    // runs the same SQL and mapping on that connection or transaction.
    const bound = Object.create(prepared) as { client: unknown; execute(values: Record<string, unknown>): Promise<R> };
    bound.client = driverClientOf(db);
    return bound.execute(values);
  };
}

function driverClientOf(db: Queryable): unknown {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  if (!client) throw new Error('reusableQuery: expected a drizzle postgres-js database or transaction');
  return client;
}
