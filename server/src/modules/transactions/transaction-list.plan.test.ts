import { Status, type ProvisionedMerchant } from '@svc/protocol';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../auth/principal';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { addBranch, firstDeviceRowId, provisionTestMerchant } from '../../test/fixtures';
import { transactionPageStatement, type PagePosition, type TransactionFilters } from './transaction-list.queries';

/**
 * A page of GET /transactions costs the same with 100,000 stored as with ten: its plan reads the rows in order from
 * an index and stops after the page, with no sequential scan of the table and no sort of every row.
 */
const STORED = 100_000;
const TAKE = 21;
const CHUNK = 20_000;

let database: TestDatabase;
let shop: ProvisionedMerchant;
let second: Awaited<ReturnType<typeof addBranch>>;
let deviceRowId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await provisionTestMerchant(database.db, 'Grown');
  second = await addBranch(database.db, shop.merchantId);
  deviceRowId = await firstDeviceRowId(database.db, shop.merchantId);
  const stranger = await provisionTestMerchant(database.db, 'Stranger');
  // The shop's transactions over its two branches (and the merchant level), a twelfth of them on its first device,
  // every third approved with a confirmation and the last four digits of a card, in a few INSERT … SELECT
  // statements (each well inside the pool's statement timeout); and some of another merchant.
  for (let from = 1; from <= STORED; from += CHUNK) {
    await database.sql`
    insert into transactions (transaction_number, merchant_id, branch_id, device_id, method_type, status, currency, amount_cents,
      link_id, confirmation, created_at, updated_at)
    select upper(substr(md5('n' || i), 1, 16)), ${shop.merchantId}::uuid,
      case i % 3 when 0 then ${shop.branchId}::uuid when 1 then ${second.branchId}::uuid end,
      case when i % 12 = 0 then ${deviceRowId}::uuid end,
      case when i % 5 = 0 then 'authorize' else 'sale' end,
      case when i % 3 = 0 then ${Status.Approved}::smallint else ${Status.Pending}::smallint end, 'USD', 100 + i % 5000, md5('l' || i),
      case when i % 3 = 0 then jsonb_build_object('confirmationNumber', lpad(i::text, 10, '0'), 'lastFourDigits', lpad((i % 10000)::text, 4, '0')) end,
      timestamptz '2026-01-01T00:00:00Z' + i * interval '1 second', timestamptz '2026-01-01T00:00:00Z' + i * interval '1 second'
    from generate_series(${from}::int, ${from + CHUNK - 1}::int) as i`;
  }
  await database.sql`
    insert into transactions (transaction_number, merchant_id, method_type, status, currency, amount_cents, link_id, created_at, updated_at)
    select upper(substr(md5('s' || i), 1, 16)), ${stranger.merchantId}::uuid, 'sale', ${Status.Pending}::smallint, 'USD', 100, md5('s' || i), now(), now()
    from generate_series(1, 1000) as i`;
  await database.sql`analyze`;
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

const principal = (kind: Principal['kind']): Principal => ({
  credentialId: '00000000-0000-4000-8000-000000000000',
  kind,
  merchantId: shop.merchantId,
  branchId: kind === 'merchant_key' ? null : kind === 'device' ? shop.branchId : second.branchId,
  deviceId: kind === 'device' ? deviceRowId : null,
  allowedOrigins: [],
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** The executed plan of the page statement, and every node of it that reads `transactions`. */
async function planOf(who: Principal, filters: TransactionFilters = {}, after: PagePosition | null = null) {
  const rows = await database.db.execute<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    sql`explain (analyze, format json) ${transactionPageStatement(who, filters, after, TAKE)}`,
  );
  const nodes = nodesOf(rows[0]!['QUERY PLAN'][0].Plan);
  return { nodes, reads: nodes.filter((n) => n['Relation Name'] === 'transactions') };
}

/** No sequential scan of transactions, no sort of more than a page, and only a page's worth of rows read. */
function expectPageCost(plan: Awaited<ReturnType<typeof planOf>>, index: string, mostRows = TAKE) {
  expect(plan.reads.map((n) => n['Node Type'])).not.toContain('Seq Scan');
  expect(plan.reads.map((n) => n['Index Name'])).toContain(index);
  for (const sort of plan.nodes.filter((n) => n['Node Type'].includes('Sort'))) expect(sort['Actual Rows']).toBeLessThanOrEqual(TAKE);
  const read = plan.reads.reduce((sum, n) => sum + (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0)) * n['Actual Loops'], 0);
  expect(read).toBeLessThanOrEqual(mostRows);
}

describe(`a page's plan with ${STORED.toLocaleString('en-US')} transactions stored`, () => {
  it('a merchant key: the first page, and one deep in the list', async () => {
    expectPageCost(await planOf(principal('merchant_key')), 'transactions_merchant_created_idx');
    const deep = { createdAt: '2026-01-01T05:00:00.000000Z', id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' };
    expectPageCost(await planOf(principal('merchant_key'), {}, deep), 'transactions_merchant_created_idx');
  });

  it('a branch key, and a device', async () => {
    expectPageCost(await planOf(principal('branch_key')), 'transactions_branch_created_idx');
    expectPageCost(await planOf(principal('device')), 'transactions_device_idx');
  });

  it('a time range, and a status most rows have', async () => {
    const range = { createdFrom: new Date('2026-01-01T10:00:00Z'), createdTo: new Date('2026-01-01T12:00:00Z') };
    expectPageCost(await planOf(principal('merchant_key'), range), 'transactions_merchant_created_idx');
    // A third of the rows are approved: the page reads on along the index past the others, about three rows a match.
    expectPageCost(await planOf(principal('merchant_key'), { statuses: [Status.Approved] }), 'transactions_merchant_created_idx', 3 * TAKE + 3);
  });

  it('q: the last four digits read their own index in order; a number is a lookup', async () => {
    expectPageCost(await planOf(principal('merchant_key'), { q: '0042' }), 'transactions_last_four_idx');
    const byNumber = await planOf(principal('merchant_key'), { q: '0000000042' });
    expectPageCost(byNumber, 'transactions_confirmation_number_idx');
    expect(byNumber.reads.map((n) => n['Index Name'])).toContain('transactions_transaction_number_unique');
  });
});
