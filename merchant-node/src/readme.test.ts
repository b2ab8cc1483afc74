import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { MERCHANT_ROUTES } from './endpoint-table';
import { methodTable, README, withMethodTable } from '../readme-methods';

describe("the README's method table", () => {
  it('is the one the endpoint table makes (pnpm --filter @svc/node readme writes it)', async () => {
    const readme = await readFile(README, 'utf8');
    expect(readme).toBe(withMethodTable(readme));
  });

  it('has a row for every method of the client', () => {
    const rows = methodTable().slice(2);
    expect(rows.map((row) => /^\| `(\w+)\(/.exec(row)?.[1])).toEqual(Object.keys(MERCHANT_ROUTES));
    expect(rows).toContainEqual('| `listTransactions(query?)` | `GET /transactions` | List and search transactions; a page; `for await` iterates every page |');
  });
});
