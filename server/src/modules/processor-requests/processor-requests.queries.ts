import { randomUUID } from 'node:crypto';
import { and, asc, eq, getTableColumns, inArray, lte, or, sql, type SQL, type SQLWrapper, type WithSubquery } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { reusableStatement, rowFromColumns } from '../../db/reusable-query';
import { PAYMENT_OPERATIONS, processorRequests, transactions, type REDOABLE_OPERATIONS } from '../../db/schema';
import type { StoredAnswer } from '../../mutations/stored-answer';

export type ProcessorRequestRow = typeof processorRequests.$inferSelect;
/** What a processor request asks the processor for (its `operation` column). */
export type ProcessorRequestKind = ProcessorRequestRow['operation'];
export type ProcessorOutcome = NonNullable<ProcessorRequestRow['outcome']>;
/** A payment: only the request that asked can make it; anyone else reverses it. */
export type PaymentKind = (typeof PAYMENT_OPERATIONS)[number];
/** A call on a method already held: anyone holding the request may make it again with its key. */
export type HeldMethodKind = (typeof REDOABLE_OPERATIONS)[number];

/** A payment (only the request that asked can make it; anyone else reverses it), not a call on a method already held. */
export function isPayment(kind: ProcessorRequestKind): kind is PaymentKind {
  return (PAYMENT_OPERATIONS as readonly string[]).includes(kind);
}

const requests = processorRequests;

export async function insertProcessorRequest(db: Queryable, row: typeof processorRequests.$inferInsert): Promise<ProcessorRequestRow> {
  const [inserted] = await db.insert(requests).values(row).returning();
  return inserted!;
}

/** The request's columns that a guarded write may give from the row it changed (a link payment's amount, say). */
export type ColumnsFromGuardedWrite = 'merchantId' | 'operation' | 'amountCents' | 'currency' | 'processorReference';

/**
 * The guarded write a request belongs to, as SQL built once per `name` (its values in `sql.placeholder` slots, which
 * `values` fills; the request's own slots are named `request_<column key>`): a CTE over the transaction it changes,
 * answering its `id`, what of the request's details comes from that write (a link payment's in-flight mark), and
 * which of its columns do.
 */
export interface GuardedWrite {
  /** One statement is built per name: a name always builds the same SQL. */
  name: string;
  build: (db: Queryable) => GuardedWriteSql;
  values: Record<string, unknown>;
}

export interface GuardedWriteSql {
  cte: WithSubquery & { id: SQLWrapper };
  details?: SQL;
  columns?: Partial<Record<ColumnsFromGuardedWrite, SQL>>;
}

type NewRequestRow = Omit<typeof processorRequests.$inferInsert, 'transactionId' | ColumnsFromGuardedWrite> &
  Partial<Pick<typeof processorRequests.$inferInsert, ColumnsFromGuardedWrite>>;

const requestColumns = Object.entries(getTableColumns(requests));
const requestSlots = requestColumns.map(([key]) => [key, `request_${key}`] as const);
const insertsWithGuarded = new Map<string, (db: Queryable, values: Record<string, unknown>) => Promise<Record<string, unknown>[]>>();

/**
 * The guarded write and the request's row in one statement: the row goes in for the transaction the write changed,
 * or not at all (null) when its guard refused. The row's other values are parameters, in the table's column order.
 */
export async function insertProcessorRequestWith(db: Queryable, guarded: GuardedWrite, row: NewRequestRow): Promise<ProcessorRequestRow | null> {
  let insert = insertsWithGuarded.get(guarded.name);
  if (!insert) insertsWithGuarded.set(guarded.name, (insert = reusableStatement((db) => requestWithGuardedWrite(db, guarded.build(db)))));
  const values: Record<string, unknown> = { id: randomUUID(), state: 'in_flight', attempts: 1, ...row };
  const slots: Record<string, unknown> = { ...guarded.values };
  for (const [key, slot] of requestSlots) slots[slot] = values[key] ?? null;
  const [inserted] = await insert(db, slots);
  return inserted ? rowFromColumns(requests, inserted) : null;
}

function requestWithGuardedWrite(db: Queryable, guarded: GuardedWriteSql): SQL {
  const columns = requestColumns.map(([key, column]) => {
    if (key === 'transactionId') return sql`${guarded.cte.id}`;
    const type = sql.raw(column.getSQLType());
    const fromTheWrite = guarded.columns?.[key as ColumnsFromGuardedWrite];
    if (fromTheWrite) return sql`(${fromTheWrite})::${type}`;
    const slot = sql`${sql.param(sql.placeholder(`request_${key}`), column)}::${type}`;
    return key === 'details' && guarded.details ? sql`coalesce(${slot}, '{}'::jsonb) || ${guarded.details}` : slot;
  });
  return db
    .with(guarded.cte)
    .insert(requests)
    .select(sql`select ${sql.join(columns, sql`, `)} from ${guarded.cte}`)
    .returning()
    .getSQL();
}

/** A request's move to done: its outcome, when, and (a payment) the attempt that alone may record it. */
export interface DoneMark {
  id: string;
  outcome: ProcessorOutcome;
  now: Date;
  /** With an attempt (a payment), only that attempt may: no claim has taken the request over since. */
  attempt: number | null;
}

/** Another recorder committed this request's outcome first: the recording rolls back and gives that one's answer. */
export class AlreadyRecordedError extends Error {
  constructor(requestId: string) {
    super(`processor request ${requestId} was recorded by another`);
    this.name = 'AlreadyRecordedError';
  }
}

/**
 * In flight → done with its answer, guarded: of everyone who got the processor's answer for this request (the request
 * itself, a worker that took it over when its lease ran out), exactly one records it. Null for the others.
 */
export async function markDone(db: Queryable, mark: DoneMark, answer: StoredAnswer | null): Promise<{ id: string } | null> {
  const [row] = mark.attempt === null ? await markDoneByAny(db, doneSlots(mark, answer)) : await markDoneByAttempt(db, doneSlots(mark, answer));
  return row ?? null;
}

const markDoneByAny = reusableStatement<{ id: string }>((db) => doneWrite(db, false));
const markDoneByAttempt = reusableStatement<{ id: string }>((db) => doneWrite(db, true));

/**
 * markDone's guarded update (returning the id when its guard let it), for a statement of the recording that makes it
 * together with its own write (`appendEvent`'s `done`). Its slots are named `done_*`: fill them with `doneSlots`.
 */
export function doneWrite(db: Queryable, byAttempt: boolean): SQL {
  const p = (name: string) => sql.placeholder(`done_${name}`);
  return db
    .update(requests)
    .set({
      state: sql`'done'`,
      outcome: sql`${p('outcome')}::text`,
      completedAt: sql`${p('now')}::timestamptz`,
      lastError: sql`null`,
      responseStatus: sql`${p('responseStatus')}::integer`,
      responseBody: sql`${p('responseBody')}::text`,
    })
    .where(
      and(
        eq(requests.id, p('id')),
        // A call made again answers as the first one did, so any attempt may record it, even once set aside for review.
        byAttempt
          ? and(eq(requests.state, 'in_flight'), sql`${requests.attempts} = ${p('attempt')}::integer`)
          : inArray(requests.state, ['in_flight', 'needs_review']),
      ),
    )
    .returning({ id: requests.id })
    .getSQL();
}

/** The values of `doneWrite`'s `done_*` slots for this move to done and the answer it keeps. */
export function doneSlots(mark: DoneMark, answer: StoredAnswer | null): Record<string, unknown> {
  return {
    done_id: mark.id,
    done_outcome: mark.outcome,
    done_now: mark.now.toISOString(),
    done_attempt: mark.attempt,
    done_responseStatus: answer?.status ?? null,
    done_responseBody: answer?.body ?? null,
  };
}

/**
 * The request that made a payment takes it over to reverse it, as the worker's claim does (a new attempt, committed
 * before the reversal is asked): if its own recording is still in doubt (a commit whose acknowledgement was lost),
 * this waits for it, and an approval of the attempt that called can no longer be recorded once it returns. Also
 * from needs_review: a reversal is always safe for a payment whose decision was never recorded. Null when another
 * holds the request or it is done.
 */
export async function claimForReversal(db: Queryable, id: string, attempt: number, leaseUntil: Date): Promise<ProcessorRequestRow | null> {
  const [row] = await db
    .update(requests)
    .set({ state: 'in_flight', attempts: sql`${requests.attempts} + 1`, leaseExpiresAt: leaseUntil })
    .where(and(eq(requests.id, id), or(and(eq(requests.state, 'in_flight'), eq(requests.attempts, attempt)), eq(requests.state, 'needs_review'))))
    .returning();
  return row ?? null;
}

/** Why an attempt did not finish, for the operator (the request stays in flight). */
export async function noteFailure(db: Queryable, id: string, attempt: number, error: string): Promise<void> {
  await db
    .update(requests)
    .set({ lastError: error.slice(0, 500) })
    .where(and(eq(requests.id, id), eq(requests.attempts, attempt)));
}

/** In flight → needs_review: given up on by the worker; the operator finds it by this state (and `svc` lists it). */
export async function setAsideForReview(db: Queryable, id: string, attempt: number): Promise<ProcessorRequestRow | null> {
  const [row] = await db
    .update(requests)
    .set({ state: 'needs_review' })
    .where(and(eq(requests.id, id), eq(requests.state, 'in_flight'), eq(requests.attempts, attempt)))
    .returning();
  return row ?? null;
}

/** A request set aside, as the operator sees it. */
export interface RequestNeedingReview {
  id: string;
  operation: ProcessorRequestKind;
  requestKey: string;
  transactionNumber: string | null;
  amountCents: number;
  currency: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
}

export async function listNeedingReview(db: Queryable): Promise<RequestNeedingReview[]> {
  return db
    .select({
      id: requests.id,
      operation: requests.operation,
      requestKey: requests.requestKey,
      transactionNumber: transactions.transactionNumber,
      amountCents: requests.amountCents,
      currency: requests.currency,
      attempts: requests.attempts,
      lastError: requests.lastError,
      createdAt: requests.createdAt,
    })
    .from(requests)
    .leftJoin(transactions, eq(transactions.id, requests.transactionId))
    .where(eq(requests.state, 'needs_review'))
    .orderBy(asc(requests.createdAt));
}

/** needs_review → in flight, due at once; its give-up time counts from `now`. Null when it is not set aside. */
export async function retryNeedingReview(db: Queryable, id: string, now: Date): Promise<ProcessorRequestRow | null> {
  const [row] = await db
    .update(requests)
    .set({ state: 'in_flight', leaseExpiresAt: now, retriedAt: now })
    .where(and(eq(requests.id, id), eq(requests.state, 'needs_review')))
    .returning();
  return row ?? null;
}

export async function findProcessorRequest(db: Queryable, id: string): Promise<ProcessorRequestRow | null> {
  const [row] = await db.select().from(requests).where(eq(requests.id, id)).limit(1);
  return row ?? null;
}

/**
 * Requests still in flight whose lease ran out (their process crashed, restarted, or lost the processor's answer),
 * oldest first, each claimed for another attempt; rows another instance is claiming are skipped. Each attempt's lease
 * is twice the last one's (from `leaseMs`, at most `maxLeaseMs`), so a processor that stays down is asked less often.
 */
export async function claimAbandoned(
  db: Queryable,
  now: Date,
  leaseMs: number,
  maxLeaseMs: number,
  limit: number,
  leaseFrom: Date = now,
): Promise<ProcessorRequestRow[]> {
  const due = db
    .select({ id: requests.id })
    .from(requests)
    .where(and(eq(requests.state, 'in_flight'), lte(requests.leaseExpiresAt, now)))
    .orderBy(asc(requests.leaseExpiresAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(requests)
    .set({
      leaseExpiresAt: sql`${leaseFrom.toISOString()}::timestamptz + least(${leaseMs}::float8 * power(2, least(${requests.attempts}, 30)), ${maxLeaseMs}::float8) * interval '1 millisecond'`,
      attempts: sql`${requests.attempts} + 1`,
    })
    .where(inArray(requests.id, due))
    .returning();
}
