import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { reusableInsert, reusableQuery, reusableStatement } from './reusable-query';
import { merchants } from './schema';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const merchantNamed = reusableQuery('test_merchant_named', (db) =>
  db
    .select({ id: merchants.id, name: merchants.name })
    .from(merchants)
    .where(eq(merchants.name, sql.placeholder('name'))),
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

  it('names a missing value instead of sending a query without it', async () => {
    await expect(merchantNamed(database.db, {})).rejects.toThrow(/placeholder "name"/);
  });
});

describe('reusableInsert and reusableStatement', () => {
  const insertMerchant = reusableInsert(merchants);
  const namesLike = reusableStatement<{ name: string }>(
    () => sql`select name from ${merchants} where name like ${sql.placeholder('pattern')}::text order by name`,
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
    await expect(namesLike(database.db, {})).rejects.toThrow(/placeholder "pattern"/);
  });
});
