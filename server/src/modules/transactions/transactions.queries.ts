import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { merchants, paymentTokens, payments, transactionEvents, transactions } from '../../db/schema';
import type { Principal } from '../../http/authenticate';
import { transactionScope } from './transaction-scope';

export type TransactionRow = typeof transactions.$inferSelect;
export type NewTransactionRow = typeof transactions.$inferInsert;
export type PaymentRow = typeof payments.$inferSelect;
export type PaymentTokenRow = typeof paymentTokens.$inferSelect;

/** Every update of a transaction takes the next sequence number in the same statement. */
export function nextSequence() {
  return sql`${transactions.sequence} + 1`;
}

export interface MerchantFace {
  name: string;
  businessId: number;
}

/** Everything the transaction object is built from. */
export interface TransactionView {
  row: TransactionRow;
  merchant: MerchantFace;
  token: Pick<PaymentTokenRow, 'token' | 'type'> | null;
  payments: PaymentRow[];
}

export async function insertTransaction(db: Queryable, values: NewTransactionRow): Promise<TransactionRow> {
  const [row] = await db.insert(transactions).values(values).returning();
  return row!;
}

const viewColumns = {
  row: transactions,
  merchant: { name: merchants.name, businessId: merchants.businessId },
  token: { token: paymentTokens.token, type: paymentTokens.type },
};

async function completeView(db: Queryable, found: { row: TransactionRow; merchant: MerchantFace; token: TransactionView['token'] | null } | undefined) {
  if (!found) return null;
  const rows = await db.select().from(payments).where(eq(payments.transactionId, found.row.id)).orderBy(asc(payments.createdAt), asc(payments.id));
  return { row: found.row, merchant: found.merchant, token: found.token?.token ? found.token : null, payments: rows };
}

/** The view of a transaction by id (no scope: for code that already holds the row). */
export async function loadTransactionView(db: Queryable, transactionId: string): Promise<TransactionView> {
  const [found] = await db
    .select(viewColumns)
    .from(transactions)
    .innerJoin(merchants, eq(merchants.id, transactions.merchantId))
    .leftJoin(paymentTokens, eq(paymentTokens.transactionId, transactions.id))
    .where(eq(transactions.id, transactionId))
    .limit(1);
  const view = await completeView(db, found);
  if (!view) throw new Error(`transaction ${transactionId} vanished`);
  return view;
}

/** The view of a transaction the caller may see, by number; null when it does not exist for them. */
export async function findTransactionViewForPrincipal(db: Queryable, principal: Principal, transactionNumber: string): Promise<TransactionView | null> {
  const [found] = await db
    .select(viewColumns)
    .from(transactions)
    .innerJoin(merchants, eq(merchants.id, transactions.merchantId))
    .leftJoin(paymentTokens, eq(paymentTokens.transactionId, transactions.id))
    .where(and(eq(transactions.transactionNumber, transactionNumber), transactionScope(principal)))
    .limit(1);
  return completeView(db, found);
}

/** The row of a transaction the caller may see, by number. */
export async function findTransactionRowForPrincipal(db: Queryable, principal: Principal, transactionNumber: string): Promise<TransactionRow | null> {
  const [row] = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.transactionNumber, transactionNumber), transactionScope(principal)))
    .limit(1);
  return row ?? null;
}

export async function insertEvent(
  db: Queryable,
  values: { transactionId: string; merchantId: string; sequence: number; type: 'transaction.created' | 'transaction.updated'; payload: string; createdAt: Date },
) {
  const [row] = await db.insert(transactionEvents).values(values).returning({ id: transactionEvents.id });
  return row!;
}

/** Pending → Cancelled, guarded: only a transaction still pending moves. */
export async function cancelPending(db: Queryable, transactionId: string, now: Date): Promise<TransactionRow | null> {
  const [row] = await db
    .update(transactions)
    .set({ status: 4, sequence: nextSequence(), updatedAt: now })
    .where(and(eq(transactions.id, transactionId), eq(transactions.status, 1)))
    .returning();
  return row ?? null;
}
