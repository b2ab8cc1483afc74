import { getTableColumns, is, Param, Placeholder, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgDialect, PgTable } from 'drizzle-orm/pg-core';
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

/**
 * A statement written as drizzle `sql` (values in `sql.placeholder(name)` slots) whose text is built once, for what
 * the query builders cannot say as one statement (a write's RETURNING rows read through a CTE). It is sent
 * prepared on whatever pool or transaction each call passes; rows come back as the driver returns them, keyed by
 * column name (timestamps as text: drizzle's driver setup leaves their parsing to the column mapping).
 */
export function reusableStatement<Row>(build: (db: Queryable) => SQL): (db: Queryable, values: Record<string, unknown>) => Promise<Row[]> {
  let built: { sql: string; slots: Slot[] } | undefined;
  return async (db, values) => {
    if (!built) {
      const query = dialectOf(db).sqlToQuery(build(db));
      built = { sql: query.sql, slots: query.params.map(slotOf) };
    }
    const client = driverClientOf(db) as { unsafe(text: string, params: unknown[], options: { prepare: boolean }): Promise<Row[]> };
    return client.unsafe(built.sql, fillSlots(built.slots, values), { prepare: true });
  };
}

function dialectOf(db: Queryable): PgDialect {
  const dialect = (db as unknown as { dialect?: PgDialect }).dialect;
  if (!dialect) throw new Error('reusableStatement: expected a drizzle postgres-js database or transaction');
  return dialect;
}

/** A parameter of a built statement: a value built into it, or a slot filled on each call (mapped by its column, if any). */
type Slot = { value: unknown } | { name: string; encode: ((value: unknown) => unknown) | null };

/** Told apart once, when the statement is built: drizzle's `is` walks prototype chains, too slow for every call. */
function slotOf(param: unknown): Slot {
  if (is(param, Placeholder)) return { name: param.name, encode: null };
  if (is(param, Param) && is(param.value, Placeholder)) {
    const { encoder } = param;
    return { name: param.value.name, encode: (value) => encoder.mapToDriverValue(value) };
  }
  return { value: param };
}

/** drizzle's fillPlaceholders, except that a null is sent as null (drizzle's column encoders do not take one). */
function fillSlots(slots: Slot[], values: Record<string, unknown>): unknown[] {
  return slots.map((slot) => {
    if ('value' in slot) return slot.value;
    if (!(slot.name in values)) throw new Error(`No value for placeholder "${slot.name}" was provided`);
    const value = values[slot.name];
    return value === null || value === undefined ? null : slot.encode ? slot.encode(value) : value;
  });
}

/** A row of `table` from the driver's columns, mapped as drizzle maps a selected row. */
export function rowFromColumns<T extends PgTable>(table: T, raw: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of columnsOf(table)) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}

const columnLists = new WeakMap<PgTable, [string, PgColumn][]>();
function columnsOf(table: PgTable): [string, PgColumn][] {
  let columns = columnLists.get(table);
  if (!columns) columnLists.set(table, (columns = Object.entries(getTableColumns(table))));
  return columns;
}

/**
 * `insert into <table> (…) values (…) returning *` built once per set of columns given (a call site passes the same
 * keys every time, so this is one built statement per call site), values mapped by their columns as drizzle maps them.
 */
export function reusableInsert<T extends PgTable>(table: T): (db: Queryable, values: T['$inferInsert']) => Promise<T['$inferSelect']> {
  const insert = reusableWrite((db, slots) =>
    db
      .insert(table)
      .values(slots as T['$inferInsert'])
      .returning()
      .getSQL(),
  );
  return async (db, values) => rowFromColumns(table, (await insert(db, values as Record<string, unknown>))[0]!);
}

/**
 * A write of the columns a call gives, built once per set of them: `build` gets a `sql.placeholder` slot for each
 * given column (named after it) and returns the statement; rows come back as the driver returns them.
 */
export function reusableWrite(
  build: (db: Queryable, slots: Record<string, Placeholder>) => SQL,
): (db: Queryable, values: Record<string, unknown>) => Promise<Record<string, unknown>[]> {
  const byColumns = new Map<string, (db: Queryable, values: Record<string, unknown>) => Promise<Record<string, unknown>[]>>();
  return (db, values) => {
    const keys = Object.keys(values).filter((key) => values[key] !== undefined);
    const signature = keys.join(',');
    let write = byColumns.get(signature);
    if (!write) {
      const slots = Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)]));
      write = reusableStatement((db) => build(db, slots));
      byColumns.set(signature, write);
    }
    return write(db, values);
  };
}
