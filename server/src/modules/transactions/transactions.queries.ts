import { Status, type CallbackMethod, type TransactionStatusCode } from '@svc/protocol';
import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { branches, merchants, paymentTokens, payments, processorRequests, refunds, transactions } from '../../db/schema';
import type { Principal } from '../../auth/principal';
import {
  columnParam,
  reusableInsert,
  reusableStatement,
  reusableWrite,
  rowFromColumns,
  type ParamSlots,
  type ParamSpec,
  type ParamValues,
} from '../../db/reusable-query';
import type { PaymentRow, PaymentTokenRow } from '../payments';
import { SCOPE_PARAMS, scopeCondition, transactionScope } from '../../db/transaction-scope';

export type TransactionRow = typeof transactions.$inferSelect;
export type NewTransactionRow = typeof transactions.$inferInsert;
export type RefundRow = typeof refunds.$inferSelect;

/** Every update of a transaction takes the next sequence number in the same statement. */
export function nextSequence() {
  return sql`${transactions.sequence} + 1`;
}

export interface MerchantSummary {
  name: string;
  businessId: number;
}

/** Everything the transaction object is built from. */
export interface TransactionView {
  row: TransactionRow;
  merchant: MerchantSummary;
  token: Pick<PaymentTokenRow, 'token' | 'type' | 'lastFourDigits'> | null;
  payments: PaymentRow[];
  /** Oldest first. */
  refunds: RefundRow[];
}

const transactionInsert = reusableInsert(transactions);

export function insertTransaction(db: Queryable, values: NewTransactionRow): Promise<TransactionRow> {
  return transactionInsert(db, values);
}

/** An init's new transaction: its callback as the init gives it (a null URL: none given, a null method: none given). */
export type InitTransactionRow = Omit<NewTransactionRow, 'callbackUrl' | 'callbackMethod'> & {
  callbackUrl: string | null;
  callbackMethod: CallbackMethod | null;
};

/**
 * Inserts an init's transaction and answers its view, in one statement (built once per set of columns given), the callback defaults read by the insert
 * itself: without a URL of the init's own, the branch's default (of `branchId`), else the merchant's (as
 * callbackDefaultsFor reads them: docs/integrating.md#default-callback), and the method the init gives, else the
 * default's, else POST. The caller checks a default URL the row took, and rolls the insert back when it is refused.
 */
export async function insertInitTransactionView(db: Queryable, values: InitTransactionRow): Promise<TransactionView> {
  const [raw] = await initViewInsert(db, values as NewTransactionRow);
  return viewFromColumns(raw!);
}

const initViewInsert = reusableWrite(transactions, (db, slots) => {
  // The slots as the insert's own values are: each mapped by its column, and cast to its type (no use infers it).
  const own = (key: 'merchantId' | 'branchId' | 'callbackUrl' | 'callbackMethod') =>
    sql`${sql.param(slots[key], transactions[key])}::${sql.raw(transactions[key].getSQLType())}`;
  const defaults = (pick: SQL) => sql`(select ${pick} from ${merchants} m
    left join ${branches} b on b.id = ${own('branchId')} and b.merchant_id = m.id where m.id = ${own('merchantId')})`;
  const url = sql`coalesce(${own('callbackUrl')}, ${defaults(sql`coalesce(b.callback_url, m.callback_url)`)})`;
  const byDefault = sql`case when b.callback_url is not null then b.callback_method when m.callback_url is not null then m.callback_method end`;
  const method = sql`coalesce(${own('callbackMethod')}, case when ${own('callbackUrl')} is null then ${defaults(byDefault)} end, 'POST')`;
  return viewOfWrite(
    db
      .insert(transactions)
      .values({ ...(slots as unknown as NewTransactionRow), callbackUrl: url, callbackMethod: method })
      .returning()
      .getSQL(),
  );
});

/** A payment as the view's JSON column carries it: the payments row with its timestamp as text. */
type PaymentJson = Omit<PaymentRow, 'createdAt'> & { createdAt: string };

/**
 * The transaction's payments, oldest first, as one JSON column, so that one statement reads the whole view. The
 * keys are the drizzle field names of `payments`.
 */
const paymentsOfTransaction = sql<PaymentJson[]>`coalesce((
  select json_agg(json_build_object(
    'id', p.id, 'paymentId', p.payment_id, 'transactionId', p.transaction_id, 'merchantId', p.merchant_id,
    'kind', p.kind, 'amountCents', p.amount_cents, 'status', p.status,
    'confirmationNumber', p.confirmation_number, 'createdAt', p.created_at
  ) order by p.created_at, p.id)
  from ${payments} p where p.transaction_id = ${transactions.id}
), '[]'::json)`;

/** A refund as the view's JSON column carries it: the refunds row with its timestamps as text. */
type RefundJson = Omit<RefundRow, 'createdAt' | 'updatedAt'> & { createdAt: string; updatedAt: string };

/** The transaction's refunds, oldest first, as one JSON column (keys: the drizzle field names of `refunds`). */
const refundsOfTransaction = sql<RefundJson[]>`coalesce((
  select json_agg(json_build_object(
    'id', r.id, 'refundId', r.refund_id, 'transactionId', r.transaction_id, 'merchantId', r.merchant_id,
    'amountCents', r.amount_cents, 'currency', r.currency, 'status', r.status, 'reason', r.reason,
    'description', r.description, 'failureCode', r.failure_code, 'processorReference', r.processor_reference, 'processorRequestId', r.processor_request_id,
    'createdAt', r.created_at, 'updatedAt', r.updated_at
  ) order by r.created_at, r.id)
  from ${refunds} r where r.transaction_id = ${transactions.id}
), '[]'::json)`;

/**
 * A view read by `where` (with the slots of `params`), built once, mapped as the writes' views are (`viewFromColumns`).
 * With `first`, the rows `first` selects are read before anything else, in a materialized CTE that takes the table's
 * name (as a write's view reads its RETURNING rows), and `where` is checked on them only.
 */
function viewRead<S extends ParamSpec>(
  params: S,
  where: (slots: ParamSlots<S>) => SQL,
  first?: (slots: ParamSlots<S>) => SQL,
): (db: Queryable, values: ParamValues<S>) => Promise<TransactionView | null> {
  const read = reusableStatement(params, (_db, slots) =>
    first
      ? sql<ViewColumns>`with ${transactions} as materialized (select * from ${transactions} where ${first(slots)}) ${viewOfWritten} where ${where(slots)} limit 1`
      : sql<ViewColumns>`${viewOfWritten} where ${where(slots)} limit 1`,
  );
  return async (db, values) => {
    const [raw] = await read(db, values);
    return raw ? viewFromColumns(raw) : null;
  };
}

const viewById = viewRead({ transactionId: columnParam(transactions.id) }, (slots) => eq(transactions.id, slots.transactionId));

/**
 * The view select: a transaction's row with its merchant, token and payments, mapped by `viewFromColumns`. Plain
 * reads put a `where` after it (`viewRead`); a write reads it from its own RETURNING rows: `with "transactions" as
 * (<write> returning *) <view select>` (`viewOfWrite`). The CTE takes the table's name, so the view select (merchant, token and payments joined to it) reads the rows as the
 * write left them, in the write's statement: a change needs no statement of its own to read what it wrote. Rows
 * inserted earlier in the same database transaction (a token, a payment) are seen; ones the caller inserts after
 * the write are not (add them with `withPayment` / `withToken`).
 */
const viewOfWritten = sql`select ${transactions}.*, m.name as view_merchant_name, m.business_id as view_merchant_business_id,
    tok.token as view_token, tok.type as view_token_type, tok.last_four_digits as view_token_last_four_digits,
    ${paymentsOfTransaction} as view_payments, ${refundsOfTransaction} as view_refunds
  from ${transactions}
  join ${merchants} m on m.id = ${transactions.merchantId}
  left join ${paymentTokens} tok on tok.transaction_id = ${transactions.id}`;

/** A write (update or insert, with `.returning()`) whose rows come back as views, in one statement. */
interface ReturningWrite {
  getSQL(): SQL;
}

/** Builds `write` once (with the slots of `params`) and returns a function that runs it and answers the views. */
export function writeReturningView<S extends ParamSpec>(
  params: S,
  build: (db: Queryable, slots: ParamSlots<S>) => ReturningWrite,
): (db: Queryable, values: ParamValues<S>) => Promise<TransactionView[]> {
  const run = reusableStatement(params, (db, slots) => viewOfWrite(build(db, slots).getSQL()));
  return async (db, values) => (await run(db, values)).map(viewFromColumns);
}

function viewOfWrite(write: SQL): SQL<ViewColumns> {
  return sql<ViewColumns>`with ${transactions} as (${write}) ${viewOfWritten}`;
}

/**
 * The views of the rows `rows` selects (whole `transactions` rows, and any columns of its own beside them, which come
 * back in the raw columns), in the order `order` gives: one statement, the view select reading `rows` as the table.
 */
export function viewsOfRows(rows: SQL, order: SQL): SQL {
  return sql`with ${transactions} as (${rows}) ${viewOfWritten} ${order}`;
}

/** A view's row as the driver answers it: the transaction's columns and the `view_*` ones (`viewFromColumns` maps it). */
type ViewColumns = Record<string, unknown>;

/** A view from the raw columns of `viewOfWritten`, mapped as drizzle maps a selected row. */
export function viewFromColumns(raw: Record<string, unknown>): TransactionView {
  const token = raw.view_token as string | null;
  return {
    row: rowFromColumns(transactions, raw),
    merchant: { name: raw.view_merchant_name as string, businessId: Number(raw.view_merchant_business_id) },
    token:
      token === null ? null : { token, type: raw.view_token_type as PaymentTokenRow['type'], lastFourDigits: raw.view_token_last_four_digits as string | null },
    payments: (raw.view_payments as PaymentJson[]).map((p) => ({ ...p, createdAt: new Date(p.createdAt) })),
    refunds: (raw.view_refunds as RefundJson[]).map((r) => ({ ...r, createdAt: new Date(r.createdAt), updatedAt: new Date(r.updatedAt) })),
  };
}

/** The view with a payment the change inserted after its guarded write. */
export function withPayment(view: TransactionView, payment: PaymentRow): TransactionView {
  return { ...view, payments: [...view.payments, payment] };
}

/** The view with the token the change issued after its guarded write. */
export function withToken(view: TransactionView, token: Pick<PaymentTokenRow, 'token' | 'type' | 'lastFourDigits'>): TransactionView {
  return { ...view, token: { token: token.token, type: token.type, lastFourDigits: token.lastFourDigits } };
}

/** The view of a transaction by id (no scope: for code that already holds the row). One statement. */
export async function loadTransactionView(db: Queryable, transactionId: string): Promise<TransactionView> {
  const view = await viewById(db, { transactionId });
  if (!view) throw new Error(`transaction ${transactionId} vanished`);
  return view;
}

/** One reusable query per credential kind: each kind's scope is a differently shaped condition. */
const viewByNumberFor = {
  merchant_key: viewByNumberScoped('merchant_key'),
  branch_key: viewByNumberScoped('branch_key'),
  device: viewByNumberScoped('device'),
};

/**
 * The number's row is found by its unique index first and the scope checked on that one row (`viewRead`'s `first`):
 * left to choose, the planner could start from the scope's merchant instead, and did without statistics (a new
 * database, before its first analyze): planned on `transactions_merchant_created_idx`, the read filtered every
 * transaction of the merchant (bench/findings.md, lifecycle).
 */
function viewByNumberScoped(kind: Exclude<Principal['kind'], 'client'>) {
  return viewRead(
    { transactionNumber: columnParam(transactions.transactionNumber), scope: SCOPE_PARAMS },
    (slots) => scopeCondition(kind, slots.scope),
    (slots) => eq(transactions.transactionNumber, slots.transactionNumber),
  );
}

/** The view of a transaction the caller may see, by number; null when it does not exist for them. One statement. */
export function findTransactionViewForPrincipal(db: Queryable, principal: Principal, transactionNumber: string): Promise<TransactionView | null> {
  if (principal.kind === 'client') throw new Error('client IDs never read transactions through a merchant endpoint');
  return viewByNumberFor[principal.kind](db, { transactionNumber, scope: principal });
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

/**
 * Status `from` → `to` for these transactions, guarded in the statement: only those still at `from` move, each taking
 * its next sequence. Returns the rows that moved.
 */
export function moveStatus(
  db: Queryable,
  transactionIds: string[],
  from: TransactionStatusCode,
  to: TransactionStatusCode,
  now: Date,
  guard?: SQL,
): Promise<TransactionRow[]> {
  if (transactionIds.length === 0) return Promise.resolve([]);
  return db
    .update(transactions)
    .set({ status: to, sequence: nextSequence(), updatedAt: now })
    .where(and(inArray(transactions.id, transactionIds), eq(transactions.status, from), guard))
    .returning();
}

/**
 * How long a consumer payment stays marked in flight before its process is taken to have stopped: far longer than a
 * processor call may take, so a slow approval is never taken over (and lost). Counted in the database's wall-clock
 * time, not the service clock, which the sandbox moves at will and which has nothing to say about a stopped process.
 */
export const CONSUMER_PAYMENT_STALE_S = 600;

/** The in-flight mark: the database's wall-clock time, to the millisecond (so a JavaScript Date reads it back exactly). */
export const consumerPaymentMark: SQL = sql`date_trunc('milliseconds', clock_timestamp())`;

/**
 * No consumer payment of the link is at the processor: another payment, a cancel or a time-out must not touch a
 * transaction the processor may be charging. A mark older than CONSUMER_PAYMENT_STALE_S (its process stopped) no
 * longer counts, unless its payment's processor request is still unfinished (its reversal pending, or set aside for
 * review): until that is settled the first payment may still be charged.
 */
export function noConsumerPaymentInFlight(): SQL {
  return or(
    isNull(transactions.consumerPaymentSince),
    sql`${transactions.consumerPaymentSince} <= clock_timestamp() - make_interval(secs => ${CONSUMER_PAYMENT_STALE_S})
      and not exists (select 1 from ${processorRequests} where ${processorRequests.transactionId} = ${transactions.id} and ${processorRequests.operation} in ('sale', 'authorize') and ${processorRequests.state} <> 'done')`,
  )!;
}

/** Pending → Cancelled, guarded: only a transaction still pending, with no consumer payment in flight, moves. */
export async function cancelPending(db: Queryable, transactionId: string, now: Date): Promise<TransactionRow | null> {
  const [row] = await moveStatus(db, [transactionId], Status.Pending, Status.Cancelled, now, noConsumerPaymentInFlight());
  return row ?? null;
}

/** The `SMS` field once the link SMS was handed to the outbox (before the creation is recorded: no new sequence). */
export async function setSmsState(db: Queryable, transactionId: string, smsState: 'Sent' | 'Pending'): Promise<void> {
  await db.update(transactions).set({ smsState }).where(eq(transactions.id, transactionId));
}

/**
 * Pending → Sent or Failed once the message sender knows the SMS's fate: guarded (only a Pending SMS moves, so a
 * repeated outcome changes nothing) and taking the next sequence. Answers the transaction's id, or null.
 */
export async function settleSmsState(db: Queryable, transactionId: string, smsState: 'Sent' | 'Failed', now: Date): Promise<string | null> {
  const [row] = await db
    .update(transactions)
    .set({ smsState, sequence: nextSequence(), updatedAt: now })
    .where(and(eq(transactions.id, transactionId), eq(transactions.smsState, 'Pending')))
    .returning({ id: transactions.id });
  return row?.id ?? null;
}
