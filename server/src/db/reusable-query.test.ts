import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { columnParam, param, reusableInsert, reusableQuery, reusableStatement, rowFromColumns, rowParams } from './reusable-query';
import { merchants } from './schema';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const merchantNamed = reusableQuery('test_merchant_named', { name: columnParam(merchants.name) }, (db, slots) =>
  db.select({ id: merchants.id, name: merchants.name }).from(merchants).where(eq(merchants.name, slots.name)),
);

describe('reusableQuery', () => {
  it('runs the query built once on the pool and inside a transaction opened later, with each call its own values', async () => {
    const { db } = database;
    expect(await merchantNamed(db, { name: 'Reusable A' })).toEqual([]);
    await db.transaction(async (tx) => {
      await tx.insert(merchants).values({ name: 'Reusable A', hmacSecret: 'whsec_test' });
      // Inside the transaction: its own uncommitted row is there...
      expect((await merchantNamed(tx, { name: 'Reusable A' })).map((row) => row.name)).toEqual(['Reusable A']);
      // ...and the pool, on another connection, does not see it yet.
      expect(await merchantNamed(db, { name: 'Reusable A' })).toEqual([]);
      expect(await merchantNamed(tx, { name: 'Reusable B' })).toEqual([]);
    });
    expect(await merchantNamed(db, { name: 'Reusable A' })).toHaveLength(1);
  });
});

describe('reusableInsert and reusableStatement', () => {
  const insertMerchant = reusableInsert(merchants);
  const namesLike = reusableStatement(
    { pattern: param.text },
    (_db, slots) => sql<{ name: string }>`select name from ${merchants} where name like ${slots.pattern} order by name`,
  );

  it('insert the columns each call gives and answer the row as drizzle maps it, on the pool or a transaction', async () => {
    const { db } = database;
    const created = await insertMerchant(db, { name: 'Insert A', hmacSecret: 'whsec_a' });
    expect(created).toMatchObject({ name: 'Insert A', hmacSecret: 'whsec_a' });
    expect(created.createdAt).toBeInstanceOf(Date); // a timestamp column, mapped from the driver's text
    await db.transaction(async (tx) => {
      await insertMerchant(tx, { name: 'Insert B', hmacSecret: 'whsec_b' });
      expect((await namesLike(tx, { pattern: 'Insert %' })).map((r) => r.name)).toEqual(['Insert A', 'Insert B']);
      expect((await namesLike(db, { pattern: 'Insert %' })).map((r) => r.name)).toEqual(['Insert A']);
    });
  });

  it('name a missing value instead of sending the statement without it', async () => {
    await expect(namesLike(database.db, {} as never)).rejects.toThrow(/placeholder "pattern"/);
  });
});

describe('typed parameters', () => {
  // A group of columns (`rowParams` makes one of a whole table; merchants has a generated column, so a few are named here).
  const { name, hmacSecret, isSandboxDemo, createdAt } = rowParams(merchants);
  const insertRow = reusableStatement({ merchant: { name, hmacSecret, isSandboxDemo, createdAt } }, (db, slots) =>
    db.insert(merchants).values(slots.merchant).returning().getSQL(),
  );
  const createdBetween = reusableStatement(
    { from: columnParam(merchants.createdAt), to: param.timestamp, demo: param.nullable(param.boolean) },
    (_db, slots) =>
      sql<{ name: string }>`select name from ${merchants}
        where ${merchants.createdAt} >= ${slots.from} and ${merchants.createdAt} < ${slots.to}
          and (${slots.demo} is null or ${merchants.isSandboxDemo} = ${slots.demo})
        order by name`,
  );

  it('take a whole row as a group, a timestamp as a Date and a null as null, each encoded as its column is', async () => {
    const { db } = database;
    const at = new Date('2031-05-06T07:08:09.123Z');
    const [raw] = await insertRow(db, { merchant: { name: 'Typed A', hmacSecret: 'whsec_typed', isSandboxDemo: false, createdAt: at } });
    const row = rowFromColumns(merchants, raw!);
    expect(row).toMatchObject({ name: 'Typed A', hmacSecret: 'whsec_typed', isSandboxDemo: false });
    expect(row.createdAt.toISOString()).toBe(at.toISOString());
    const window = { from: new Date(at.getTime() - 1), to: new Date(at.getTime() + 1) };
    expect(await createdBetween(db, { ...window, demo: null })).toEqual([{ name: 'Typed A' }]);
    expect(await createdBetween(db, { ...window, demo: true })).toEqual([]);
    expect(await createdBetween(db, { from: new Date(at.getTime() + 1), to: new Date(at.getTime() + 2), demo: null })).toEqual([]);
  });

  it('refuse a slot that no parameter declares, when the statement is built', async () => {
    const undeclared = reusableStatement({ declared: param.text }, () => sql<{ x: string }>`select ${sql.placeholder('stray')}::text as x`);
    await expect(undeclared(database.db, { declared: 'x' })).rejects.toThrow(/"stray" is no declared parameter/);
  });
});
