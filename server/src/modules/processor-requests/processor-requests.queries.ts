import { randomUUID } from 'node:crypto';
import { and, asc, eq, getTableColumns, inArray, lte, or, sql, type SQL, type SQLWrapper, type WithSubquery } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { columnParam, param, reusableStatement, rowFromColumns, rowParams, type ParamSlots, type ParamSpec, type ParamValues } from '../../db/reusable-query';
import { guardedRider, type Rider } from '../../db/rider';
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
 * The guarded write a request belongs to (its intent), built once per `name` with the slots of its parameters: a CTE
 * over the transaction it changes, answering its `id`, what of the request's details comes from that write (a link
 * payment's in-flight mark), and which of its columns do. Made by `guardedWrite`, with the values of one call.
 */
export interface GuardedWrite {
  /** One statement is built per name: a name always builds the same SQL. */
  readonly name: string;
  readonly params: ParamSpec;
  readonly build: (db: Queryable, slots: ParamSlots<ParamSpec>) => GuardedWriteSql;
  readonly values: ParamValues<ParamSpec>;
}

export interface GuardedWriteSql {
  cte: WithSubquery & { id: SQLWrapper };
  details?: SQL;
  columns?: Partial<Record<ColumnsFromGuardedWrite, SQL>>;
}

/** Declares a guarded write: its name, its parameters and its SQL; each call gives the values of one write (typed by the parameters). */
export function guardedWrite<S extends ParamSpec>(
  name: string,
  params: S,
  build: (db: Queryable, slots: ParamSlots<S>) => GuardedWriteSql,
): (values: ParamValues<S>) => GuardedWrite {
  return (values) => ({ name, params, build, values }) as unknown as GuardedWrite;
}

type NewRequestRow = Omit<typeof processorRequests.$inferInsert, 'transactionId' | ColumnsFromGuardedWrite> &
  Partial<Pick<typeof processorRequests.$inferInsert, ColumnsFromGuardedWrite>>;

const requestColumns = Object.entries(getTableColumns(requests));
/** The request's own values: a group of every column (those the guarded write gives are not used). */
const requestParams = { request: rowParams(requests) };
/** A guarded write's values (typed where it was declared) and the request's. */
type InsertWithGuarded = (db: Queryable, values: object & ParamValues<typeof requestParams>) => Promise<Record<string, unknown>[]>;
const insertsWithGuarded = new Map<string, InsertWithGuarded>();

/**
 * The guarded write and the request's row in one statement: the row goes in for the transaction the write changed,
 * or not at all (null) when its guard refused. The row's other values are parameters, in the table's column order.
 */
export async function insertProcessorRequestWith(db: Queryable, guarded: GuardedWrite, row: NewRequestRow): Promise<ProcessorRequestRow | null> {
  let insert = insertsWithGuarded.get(guarded.name);
  if (!insert) {
    insert = reusableStatement({ ...guarded.params, ...requestParams }, (db, slots) =>
      requestWithGuardedWrite(db, guarded.build(db, slots), slots.request),
    ) as InsertWithGuarded;
    insertsWithGuarded.set(guarded.name, insert);
  }
  const request = { id: randomUUID(), state: 'in_flight' as const, attempts: 1, ...row };
  const [inserted] = await insert(db, { ...guarded.values, request });
  return inserted ? rowFromColumns(requests, inserted) : null;
}

function requestWithGuardedWrite(db: Queryable, guarded: GuardedWriteSql, request: Record<string, SQL>): SQL {
  const columns = requestColumns.map(([key, column]) => {
    if (key === 'transactionId') return sql`${guarded.cte.id}`;
    const fromTheWrite = guarded.columns?.[key as ColumnsFromGuardedWrite];
    if (fromTheWrite) return sql`(${fromTheWrite})::${sql.raw(column.getSQLType())}`;
    const slot = request[key]!;
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

/** The parameters of a move to done (`doneWrite`). */
const DONE_PARAMS = {
  id: columnParam(requests.id),
  outcome: columnParam(requests.outcome),
  now: param.timestamp,
  attempt: param.nullable(param.integer),
  responseStatus: columnParam(requests.responseStatus),
  responseBody: columnParam(requests.responseBody),
};

/** The values of `DONE_PARAMS` for this move to done and the answer it keeps. */
function doneValues(mark: DoneMark, answer: StoredAnswer | null): ParamValues<{ done: typeof DONE_PARAMS }>['done'] {
  return {
    id: mark.id,
    outcome: mark.outcome,
    now: mark.now,
    attempt: mark.attempt,
    responseStatus: answer?.status ?? null,
    responseBody: answer?.body ?? null,
  };
}

/**
 * In flight → done with its answer, guarded: of everyone who got the processor's answer for this request (the request
 * itself, a worker that took it over when its lease ran out), exactly one records it. Null for the others.
 */
export async function markDone(db: Queryable, mark: DoneMark, answer: StoredAnswer | null): Promise<{ id: string } | null> {
  const values = { done: doneValues(mark, answer) };
  const [row] = mark.attempt === null ? await markDoneByAny(db, values) : await markDoneByAttempt(db, values);
  return row ?? null;
}

const markDoneByAny = reusableStatement({ done: DONE_PARAMS }, (db, slots) => doneWrite(db, slots.done, false));
const markDoneByAttempt = reusableStatement({ done: DONE_PARAMS }, (db, slots) => doneWrite(db, slots.done, true));

const doneByAny = guardedRider('request_done', DONE_PARAMS, (db, slots) => doneWrite(db, slots, false));
const doneByAttempt = guardedRider('request_done_by_attempt', DONE_PARAMS, (db, slots) => doneWrite(db, slots, true));

/**
 * markDone as a rider of the recording's event statement (recordChange's `finishing`), one statement fewer: refused,
 * it throws AlreadyRecordedError, and the recording rolls back.
 */
export function doneRider(mark: DoneMark, answer: StoredAnswer): Rider {
  const write = mark.attempt === null ? doneByAny : doneByAttempt;
  return write(doneValues(mark, answer), () => new AlreadyRecordedError(mark.id));
}

/** markDone's guarded update, returning the id when its guard let it. */
function doneWrite(db: Queryable, done: ParamSlots<{ done: typeof DONE_PARAMS }>['done'], byAttempt: boolean): SQL<{ id: string }> {
  return db
    .update(requests)
    .set({
      state: sql`'done'`,
      outcome: done.outcome,
      completedAt: done.now,
      lastError: sql`null`,
      responseStatus: done.responseStatus,
      responseBody: done.responseBody,
    })
    .where(
      and(
        eq(requests.id, done.id),
        // A call made again answers as the first one did, so any attempt may record it, even once set aside for review.
        byAttempt ? and(eq(requests.state, 'in_flight'), sql`${requests.attempts} = ${done.attempt}`) : inArray(requests.state, ['in_flight', 'needs_review']),
      ),
    )
    .returning({ id: requests.id })
    .getSQL() as SQL<{ id: string }>;
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

/**
 * A payment whose decision was recorded (a 3-D Secure payment's `requires_action`, done) goes back in flight to be
 * reversed: its authentication ended without a charge the books show (failed, cancelled, expired, or an approval
 * that could not be recorded), in the same transaction as that end. A new attempt, leased until `leaseUntil`, so the
 * caller reverses it at once after the commit and the worker only when that did not succeed (its lease ended); its
 * give-up time counts from `now`. `reference`, the payment's at the processor, is kept in its details for the
 * reversal (`reversalReferenceOf`). Null when no such request is done (it was reopened already).
 */
export async function reopenForReversal(
  db: Queryable,
  input: { requestKey: string; reference: string; reason: string; now: Date; leaseUntil: Date },
): Promise<ProcessorRequestRow | null> {
  const [row] = await db
    .update(requests)
    .set({
      state: 'in_flight',
      attempts: sql`${requests.attempts} + 1`,
      leaseExpiresAt: input.leaseUntil,
      retriedAt: input.now,
      lastError: input.reason,
      details: sql`${requests.details} || ${JSON.stringify({ processorReference: input.reference })}::jsonb`,
    })
    .where(and(eq(requests.requestKey, input.requestKey), eq(requests.state, 'done'), inArray(requests.operation, [...PAYMENT_OPERATIONS])))
    .returning();
  return row ?? null;
}

/** The payment's reference at the processor that a reversal may need (kept by `reopenForReversal`), if any. */
export function reversalReferenceOf(request: ProcessorRequestRow): string | undefined {
  const { processorReference } = request.details as { processorReference?: unknown };
  return typeof processorReference === 'string' ? processorReference : undefined;
}

/** The reopened request's reversal succeeded: done `reversed`, guarded on the attempt that reversed it. */
export async function markReversed(db: Queryable, id: string, attempt: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(requests)
    .set({ state: 'done', outcome: 'reversed', completedAt: now, lastError: null })
    .where(and(eq(requests.id, id), eq(requests.state, 'in_flight'), eq(requests.attempts, attempt)))
    .returning({ id: requests.id });
  return rows.length > 0;
}
