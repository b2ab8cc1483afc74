import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { runNode } from '../test/process';

// The driver (postgres.js 3.4.9, patched: see patches/postgres@3.4.9.patch) when PostgreSQL drops a connection. Each
// scenario runs in a child process: a driver crash (an exception thrown from a timer) shows as that process dying.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ max: 1 });
});
afterAll(async () => {
  await database?.drop();
});

async function run(scenario: string): Promise<Record<string, unknown>> {
  const done = await runNode([path.join('src', 'db', 'fixtures', 'connection-loss.mjs'), database.url, scenario], {});
  expect(done.stderr).not.toMatch(/TypeError/);
  expect(done.code).toBe(0);
  return JSON.parse(done.stdout.trim()) as Record<string, unknown>;
}

describe('a connection PostgreSQL terminates', () => {
  it('inside a transaction: the transaction fails, the process lives, and no later statement of it runs outside it', async () => {
    const seen = await run('terminated-inside-transaction');
    expect(seen.transaction).not.toBe('committed');
    expect(seen.afterClose).not.toBe('ran');
    expect(seen.poolAnswers).toBe(true);
    // Nothing of the transaction is stored: neither the statement before the loss nor those after it.
    expect(seen.stored).toEqual([]);
  });

  it("during a query: the query fails, and the next one runs on a new connection, not with the dead backend's error", async () => {
    const seen = await run('terminated-during-query');
    expect(seen.slow).not.toBe('answered');
    expect(seen.next).toBe(1);
    expect(seen.poolAnswers).toBe(true);
  });
});
