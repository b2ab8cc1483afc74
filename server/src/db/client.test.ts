import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { openDatabase, safeUrl } from './client';
import { merchants } from './schema';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('openDatabase', () => {
  it('sends drizzle queries as prepared statements, reused on the connection', async () => {
    const handle = openDatabase(database.url, { max: 1 });
    try {
      for (let i = 0; i < 3; i++)
        await handle.db
          .select()
          .from(merchants)
          .where(eq(merchants.name, `nobody ${i}`));
      const [row] = await handle.sql<
        { n: number }[]
      >`select count(*)::int as n from pg_prepared_statements where statement like 'select %"merchants"%' and statement not like '%pg_prepared_statements%'`;
      expect(row!.n).toBe(1); // one statement, prepared once, used three times
    } finally {
      await handle.close();
    }
  });

  it('hides the password when it names the database', () => {
    expect(safeUrl('postgres://svc:secret@db:5432/svc')).toBe('postgres://svc:***@db:5432/svc');
    expect(safeUrl('postgres://svc:secret@db1:5432,db2:5433/svc?target_session_attrs=read-write')).toBe(
      'postgres://svc:***@db1:5432,db2:5433/svc?target_session_attrs=read-write',
    );
    expect(safeUrl('not a url')).toBe('<unparseable DATABASE_URL>');
  });
});
