import { Column, getTableColumns, is, Param, Placeholder, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client';

/**
 * Statements whose SQL drizzle builds once. Turning a query builder into SQL text takes a large share of the server's
 * CPU when it happens on every call (bench/findings.md, the lifecycle profile), and drizzle's own `.prepare()` binds
 * the built query to the pool or transaction that built it, so it cannot run inside a transaction opened later. A
 * reusable statement keeps the built SQL and runs it on whatever pool or transaction each call passes.
 *
 * Its parameters are declared with it, each typed as a column of the drizzle schema takes its value
 * (`columnParam`), or as a plain SQL type (`param`); a whole row's columns make a group (`rowParams`). The statement is
 * built with one slot per parameter (cast to its SQL type), and a call passes the values as one typed object: a
 * timestamp as a Date, a jsonb column's value as it is, a group's row as the schema types it.
 */

/** The value a column takes: its data type, or null where the column takes one. */
export type ColumnValue<C extends PgColumn> = C['_']['notNull'] extends true ? C['_']['data'] : C['_']['data'] | null;

/** A parameter of a reusable statement, whatever value it takes: its SQL type (its slot is cast to it) and its encoding. */
export interface SomeParam {
  readonly sqlType: string;
  /** Null when the driver takes the value as it is. */
  readonly encode: ((value: never) => unknown) | null;
}

/** A parameter that takes a `T`. */
export interface StatementParam<T> extends SomeParam {
  readonly encode: ((value: T) => unknown) | null;
  /** Types only: the value the parameter takes. */
  readonly value?: T;
}

/** A parameter typed, cast and encoded as `column` is: a timestamp takes a Date, a jsonb column its value. */
export function columnParam<C extends PgColumn>(column: C): StatementParam<ColumnValue<C>> {
  // Most columns give the driver the value itself (Column's own mapping): those are sent without a call per value.
  const maps = column.mapToDriverValue !== Column.prototype.mapToDriverValue;
  return { sqlType: column.getSQLType(), encode: maps ? (value) => column.mapToDriverValue(value) : null };
}

function plain<T>(sqlType: string): StatementParam<T> {
  return { sqlType, encode: null };
}

/** Parameters of a plain SQL type, for values that are no column's (a limit, a channel name, a flag). */
export const param = {
  text: plain<string>('text'),
  integer: plain<number>('integer'),
  bigint: plain<number>('bigint'),
  boolean: plain<boolean>('boolean'),
  uuid: plain<string>('uuid'),
  /** JSON text, made by the caller (`JSON.stringify`). */
  json: plain<string>('json'),
  timestamp: { sqlType: 'timestamptz', encode: (value: Date) => value.toISOString() } as StatementParam<Date>,
  /** The same parameter, taking null too. */
  nullable<T>(of: StatementParam<T>): StatementParam<T | null> {
    return of as StatementParam<T | null>;
  },
};

/** Every column of `table` as a parameter: a group, for a statement that writes a whole row. */
export function rowParams<T extends PgTable>(table: T): { [K in keyof T['_']['columns']]: StatementParam<ColumnValue<T['_']['columns'][K]>> } {
  return Object.fromEntries(columnsOf(table).map(([key, column]) => [key, columnParam(column)])) as never;
}

/** A statement's parameters: each a parameter, or a group of them (a row). */
export type ParamSpec = Record<string, SomeParam | Record<string, SomeParam>>;
type ValueOf<P> = P extends StatementParam<infer T> ? T : never;
/**
 * The values a call passes: one for each parameter; for a group, an object with its fields (a field left out is
 * null, so a row as the schema types it fits).
 */
export type ParamValues<S extends ParamSpec> = {
  [K in keyof S]: S[K] extends SomeParam ? ValueOf<S[K]> : { [F in keyof S[K]]?: ValueOf<S[K][F]> };
};
/** The slots a statement is built with: `sql` fragments, one for each parameter (grouped as the parameters are). */
export type ParamSlots<S extends ParamSpec> = { [K in keyof S]: S[K] extends SomeParam ? SQL : { [F in keyof S[K]]: SQL } };

function isParam(entry: SomeParam | Record<string, SomeParam>): entry is SomeParam {
  return typeof (entry as { sqlType?: unknown }).sqlType === 'string';
}

/** Where a slot's value is found in a call's values, and how it is encoded: told once, when the statement is built. */
interface SlotSource {
  group: string | null;
  field: string;
  encode: ((value: never) => unknown) | null;
}

/** The slots of `spec` (placeholders named `<name>` and `<group>.<field>`, cast to their SQL types) and where each is filled from. */
function slotsOf<S extends ParamSpec>(spec: S): { slots: ParamSlots<S>; sources: Map<string, SlotSource> } {
  const sources = new Map<string, SlotSource>();
  const slot = (name: string, group: string | null, field: string, of: SomeParam) => {
    sources.set(name, { group, field, encode: of.encode });
    return sql`${sql.placeholder(name)}::${sql.raw(of.sqlType)}`;
  };
  const slots: Record<string, SQL | Record<string, SQL>> = {};
  for (const [name, entry] of Object.entries(spec)) {
    if (isParam(entry)) slots[name] = slot(name, null, name, entry);
    else slots[name] = Object.fromEntries(Object.entries(entry).map(([field, of]) => [field, slot(`${name}.${field}`, name, field, of)]));
  }
  return { slots: slots as ParamSlots<S>, sources };
}

/** A drizzle query builder that can be prepared (select, insert, update, delete). */
interface Preparable<R> {
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> };
}

/**
 * A query built with drizzle's query builders, built once and prepared under `name`, its result mapped by drizzle
 * (typed as the builder types it). Run on whatever pool or transaction a call passes.
 */
export function reusableQuery<S extends Record<string, SomeParam>, R>(
  name: string,
  params: S,
  build: (db: Queryable, slots: ParamSlots<S>) => Preparable<R>,
): (db: Queryable, values: ParamValues<S>) => Promise<R> {
  const { slots } = slotsOf(params);
  const encoders = Object.entries(params).map(([key, of]) => [key, of.encode] as const);
  let prepared: object | undefined;
  return (db, values) => {
    prepared ??= build(db, slots).prepare(name);
    const driverValues: Record<string, unknown> = {};
    for (const [key, encode] of encoders) {
      const value = (values as Record<string, unknown>)[key];
      driverValues[key] = value === null || value === undefined ? null : encode ? encode(value as never) : value;
    }
    // The prepared query reads its driver client from `this.client`: an object on top of it with another client
    // runs the same SQL and mapping on that connection or transaction.
    const bound = Object.create(prepared) as { client: unknown; execute(values: Record<string, unknown>): Promise<R> };
    bound.client = driverClientOf(db);
    return bound.execute(driverValues);
  };
}

function driverClientOf(db: Queryable): unknown {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  if (!client) throw new Error('reusable statements run on a drizzle postgres-js database or transaction');
  return client;
}

/**
 * A statement written as drizzle `sql` (or a builder's `.getSQL()`) with the slots of its parameters, whose text is
 * built once, for what the query builders cannot say as one statement (a write's RETURNING rows read through a CTE).
 * It is sent prepared on whatever pool or transaction each call passes; rows come back as the driver returns them,
 * keyed by column name (type them with `sql<Row>`; map a table's row with `rowFromColumns`: timestamps come as text,
 * drizzle's driver setup leaving their parsing to the column mapping).
 */
export function reusableStatement<S extends ParamSpec, Row>(
  params: S,
  build: (db: Queryable, slots: ParamSlots<S>) => SQL<Row>,
): (db: Queryable, values: ParamValues<S>) => Promise<RowOf<Row>[]> {
  const { slots, sources } = slotsOf(params);
  const run = builtOnce<RowOf<Row>>((db) => build(db, slots), sources);
  return (db, values) => run(db, values as Record<string, unknown>);
}

/** A statement's row: as its `sql<Row>` says, or the driver's columns by name when it says nothing (a builder's `getSQL()`). */
type RowOf<Row> = unknown extends Row ? Record<string, unknown> : Row;

function builtOnce<Row>(build: (db: Queryable) => SQL, sources: Map<string, SlotSource>): (db: Queryable, values: Record<string, unknown>) => Promise<Row[]> {
  let built: { sql: string; slots: Slot[] } | undefined;
  return async (db, values) => {
    if (!built) {
      const query = dialectOf(db).sqlToQuery(build(db));
      built = { sql: query.sql, slots: query.params.map((p) => slotOf(p, sources)) };
    }
    const client = driverClientOf(db) as { unsafe(text: string, params: unknown[], options: { prepare: boolean }): Promise<Row[]> };
    return client.unsafe(built.sql, fillSlots(built.slots, values), { prepare: true });
  };
}

function dialectOf(db: Queryable): PgDialect {
  const dialect = (db as unknown as { dialect?: PgDialect }).dialect;
  if (!dialect) throw new Error('reusable statements run on a drizzle postgres-js database or transaction');
  return dialect;
}

/** A parameter of a built statement: a value built into it, or a slot filled on each call. */
type Slot = { value: unknown } | ({ name: string } & SlotSource);

/** Told apart once, when the statement is built: drizzle's `is` walks prototype chains, too slow for every call. */
function slotOf(built: unknown, sources: Map<string, SlotSource>): Slot {
  if (is(built, Placeholder)) {
    const source = sources.get(built.name);
    if (!source) throw new Error(`the slot "${built.name}" is no declared parameter of its statement`);
    return { name: built.name, ...source };
  }
  // A builder's own slot for a column (an insert's values): filled by the column's name, mapped as the column maps it.
  if (is(built, Param) && is(built.value, Placeholder)) {
    const { encoder } = built;
    return { name: built.value.name, group: null, field: built.value.name, encode: (value: unknown) => encoder.mapToDriverValue(value) };
  }
  return { value: built };
}

/** drizzle's fillPlaceholders, except that a null is sent as null (drizzle's column encoders do not take one). */
function fillSlots(slots: Slot[], values: Record<string, unknown>): unknown[] {
  return slots.map((slot) => {
    if ('value' in slot) return slot.value;
    let value: unknown;
    if (slot.group === null) {
      if (!(slot.field in values)) throw new Error(`No value for placeholder "${slot.name}" was provided`);
      value = values[slot.field];
    } else {
      const group = values[slot.group] as Record<string, unknown> | undefined;
      if (group === undefined) throw new Error(`No value for placeholder "${slot.name}" was provided`);
      value = group[slot.field];
    }
    return value === null || value === undefined ? null : slot.encode ? slot.encode(value as never) : value;
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
  const insert = reusableWrite(table, (db, slots) =>
    db
      .insert(table)
      .values(slots as T['$inferInsert'])
      .returning()
      .getSQL(),
  );
  return async (db, values) => rowFromColumns(table, (await insert(db, values))[0]!);
}

/**
 * A write of the columns of `table` a call gives (its insert type), built once per set of them: `build` gets a slot
 * for each given column (named after its key; the builder maps it as the column does) and returns the statement; rows
 * come back as the driver returns them.
 */
export function reusableWrite<T extends PgTable>(
  table: T,
  build: (db: Queryable, slots: Record<string, Placeholder>) => SQL,
): (db: Queryable, values: T['$inferInsert']) => Promise<Record<string, unknown>[]> {
  const byColumns = new Map<string, (db: Queryable, values: Record<string, unknown>) => Promise<Record<string, unknown>[]>>();
  const none = new Map<string, SlotSource>();
  return (db, values) => {
    const given = values as Record<string, unknown>;
    const keys = Object.keys(given).filter((key) => given[key] !== undefined);
    const signature = keys.join(',');
    let write = byColumns.get(signature);
    if (!write) {
      const slots = Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)]));
      write = builtOnce((db) => build(db, slots), none);
      byColumns.set(signature, write);
    }
    return write(db, given);
  };
}
