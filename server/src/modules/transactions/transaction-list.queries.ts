import type { MethodType, TransactionStatusCode } from '@svc/protocol';
import { and, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../../auth/principal';
import type { Queryable } from '../../db/client';
import { payments, transactions } from '../../db/schema';
import { viewFromColumns, viewsOfRows, type TransactionView } from './transactions.queries';
import { transactionScope } from '../../db/transaction-scope';

/** What a page of `GET /transactions` narrows to, beside the caller's scope. */
export interface TransactionFilters {
  statuses?: TransactionStatusCode[];
  createdFrom?: Date;
  createdTo?: Date;
  methodType?: MethodType;
  minAmountCents?: number;
  maxAmountCents?: number;
  /** The device's row id (resolved from its device ID by the service). */
  deviceId?: string;
  posData?: Record<string, string>;
  q?: string;
}

/** Where a page starts: the (created_at, id) of the last transaction of the page before, exact to the microsecond. */
export interface PagePosition {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`, as the database wrote it. */
  createdAt: string;
  id: string;
}

/** Four digits: the last four of a card. Anything else is looked up as a transaction or confirmation number. */
export const LAST_FOUR = /^\d{4}$/;

const t = transactions;

/**
 * The statement of one page: the caller's transactions that match, newest first by (created_at, id), after
 * `after`, at most `take` of them, as views. The newest-first indexes (merchant, branch, device, last four digits)
 * hold the rows in this order, so a page reads about `take` index entries whatever the store holds; a filter no
 * index covers reads on along the index until the page is full.
 */
export function transactionPageStatement(principal: Principal, filters: TransactionFilters, after: PagePosition | null, take: number): SQL {
  const conditions: (SQL | undefined)[] = [transactionScope(principal)];
  if (filters.statuses) conditions.push(inArray(t.status, filters.statuses));
  if (filters.createdFrom) conditions.push(gte(t.createdAt, filters.createdFrom));
  if (filters.createdTo) conditions.push(lt(t.createdAt, filters.createdTo));
  if (filters.methodType) conditions.push(eq(t.methodType, filters.methodType));
  if (filters.minAmountCents !== undefined) conditions.push(gte(t.amountCents, filters.minAmountCents));
  if (filters.maxAmountCents !== undefined) conditions.push(lte(t.amountCents, filters.maxAmountCents));
  if (filters.deviceId) conditions.push(eq(t.deviceId, filters.deviceId));
  for (const [key, value] of Object.entries(filters.posData ?? {})) conditions.push(sql`${t.posData} ->> ${key}::text = ${value}::text`);
  if (filters.q !== undefined) conditions.push(searchCondition(filters.q));
  if (after) conditions.push(sql`(${t.createdAt}, ${t.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
  const rows = sql`select ${t}.*, to_char(${t.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as list_position_at
    from ${t} where ${and(...conditions)}
    order by ${t.createdAt} desc, ${t.id} desc limit ${take}`;
  return viewsOfRows(rows, sql`order by ${t.createdAt} desc, ${t.id} desc`);
}

/**
 * `q`: four digits match the last four of the card of an approval (an index of merchant, last four, time); anything
 * else the transaction number (in any letter case) or a confirmation number, the approval's or a payment's: each a
 * lookup on its own index that finds a handful of rows.
 */
function searchCondition(q: string): SQL {
  if (LAST_FOUR.test(q)) return sql`${t.confirmation} ->> 'lastFourDigits' = ${q}::text`;
  return sql`${t.id} in (
    select id from ${t} where ${t.transactionNumber} in (${q}::text, upper(${q}::text))
    union all select id from ${t} where ${t.confirmation} ->> 'confirmationNumber' = ${q}::text
    union all select ${payments.transactionId} from ${payments} where ${payments.confirmationNumber} = ${q}::text)`;
}

/** One page's views, in order, each with its position (for the cursor of the page after it). */
export async function findTransactionPage(
  db: Queryable,
  principal: Principal,
  filters: TransactionFilters,
  after: PagePosition | null,
  take: number,
): Promise<{ view: TransactionView; position: PagePosition }[]> {
  const rows = await db.execute<Record<string, unknown>>(transactionPageStatement(principal, filters, after, take));
  return rows.map((raw) => {
    const view = viewFromColumns(raw);
    return { view, position: { createdAt: raw.list_position_at as string, id: view.row.id } };
  });
}
