import { randomUUID } from 'node:crypto';
import { Status } from '@svc/protocol';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { columnParam, param, rowParams, type ParamSlots } from '../../db/reusable-query';
import { guardedRider, rider, type Rider } from '../../db/rider';
import { paymentTokens, refunds, settledCents, transactions } from '../../db/schema';
import type { Principal } from '../../auth/principal';
import { guardedWrite, type GuardedWrite } from '../processor-requests/sql';
import { nextSequence, writeReturningView, type RefundRow, type TransactionRow, type TransactionView } from '../transactions/sql';
import { transactionScope } from '../../db/transaction-scope';

const t = transactions;
const settled = settledCents(t);
/** What a new refund may take: settled money, less what was refunded and what refunds at the processor reserved. */
const refundable = sql`${settled} - ${t.refundedCents} - ${t.refundsInFlightCents}`;
/**
 * The method the money goes back to: the one a sale, a committed payment or a token charge was paid with, or an
 * authorization's (its captures were taken from it). Its columns are named in full: drizzle writes a RETURNING
 * list's columns without their table, which inside the subquery would name the token's own.
 */
const methodReference = sql<string | null>`coalesce("transactions"."processor_reference", (
  select tok.processor_reference from ${paymentTokens} tok where tok.transaction_id = "transactions"."id" and tok.type = 'authorization' limit 1
))`;
/**
 * Settled money that nothing holds any more (transactions' `isRefundable` says the same in TypeScript): a sale or a
 * committed payment once Approved, an authorization once its hold ended with captures and none in flight; either
 * after a partial refund. A tokenization settles nothing.
 */
const refundableNow = sql`(case
  when ${t.methodType} in ('sale', 'manual_capture') then ${t.status} in (${sql.raw(`${Status.Approved}, ${Status.PartiallyRefunded}`)})
  when ${t.methodType} = 'authorize' then ${t.status} in (${sql.raw(
    [Status.Captured, Status.Voided, Status.AuthorizationClosed, Status.Expired, Status.PartiallyRefunded].join(', '),
  )})
    and ${t.authStatus} is distinct from 'active' and ${t.capturedCents} > 0 and ${t.capturePendingCents} = 0
  else false end)`;

/** The transaction a caller may refund, locked until the refund's transaction ends: what it settled cannot move under it. */
export async function lockTransactionForPrincipal(db: Queryable, principal: Principal, transactionNumber: string): Promise<TransactionRow | null> {
  const [row] = await db
    .select()
    .from(t)
    .where(and(eq(t.transactionNumber, transactionNumber), transactionScope(principal)))
    .limit(1)
    .for('update');
  return row ?? null;
}

/**
 * A refund's reservation, found by the transaction's number in the caller's scope (as `lockTransactionForPrincipal`
 * scopes it) and guarded in the same statement: `amount` joins the refunds in flight if the transaction is refundable
 * and settled − refunded − in flight still covers it (and `transactions_refunds_within_settled` holds), so refunds
 * sent at once never together exceed what was settled: they serialise on the row and each re-checks the guard. The
 * transaction takes its next sequence: the refund's creation is an update. Its processor request goes in with it, for
 * the method the money goes back to, and takes its transaction, merchant and currency from the row the write found;
 * nothing is written when the guard refuses (no such transaction for the caller, nothing to refund, too much asked,
 * no method recorded), and the caller then reads the row, locked, to say why.
 */
export function reserveRefund(principal: Principal, transactionNumber: string, amountCents: number, now: Date): GuardedWrite {
  const values = { transactionNumber, merchantId: principal.merchantId, amountCents, now };
  switch (principal.kind) {
    case 'merchant_key':
      return reserveForMerchant({ ...values, unitId: null });
    case 'branch_key':
      return reserveForBranch({ ...values, unitId: principal.branchId });
    case 'device':
      return reserveForDevice({ ...values, unitId: principal.deviceId });
    case 'client':
      throw new Error('client IDs never refund: the endpoint is for merchant credentials');
  }
}

/** The reservation's parameters: the transaction by number in the caller's scope, the amount and when. */
const RESERVATION_PARAMS = {
  transactionNumber: columnParam(t.transactionNumber),
  merchantId: columnParam(t.merchantId),
  /** The caller's branch (a branch key) or device, by kind; null for a merchant key. */
  unitId: param.nullable(param.uuid),
  amountCents: columnParam(t.refundsInFlightCents),
  now: columnParam(t.updatedAt),
};

/** One statement per scope shape (`transactionScope`): a merchant key sees its merchant's rows, a branch key or device its own. */
const reserveForMerchant = guardedWrite('refund_reservation_for_merchant', RESERVATION_PARAMS, (db, slots) => refundReservation(db, slots, null));
const reserveForBranch = guardedWrite('refund_reservation_for_branch', RESERVATION_PARAMS, (db, slots) => refundReservation(db, slots, t.branchId));
const reserveForDevice = guardedWrite('refund_reservation_for_device', RESERVATION_PARAMS, (db, slots) => refundReservation(db, slots, t.deviceId));

function refundReservation(db: Queryable, slots: ParamSlots<typeof RESERVATION_PARAMS>, unit: typeof t.branchId | typeof t.deviceId | null) {
  const amount = slots.amountCents;
  const cte = db.$with('guarded').as(
    db
      .update(t)
      .set({
        refundsInFlightCents: sql`${t.refundsInFlightCents} + ${amount}`,
        sequence: nextSequence(),
        updatedAt: slots.now,
      })
      .where(
        and(
          eq(t.transactionNumber, slots.transactionNumber),
          eq(t.merchantId, slots.merchantId),
          unit ? eq(unit, slots.unitId) : undefined,
          refundableNow,
          sql`${amount} > 0`,
          sql`${refundable} >= ${amount}`,
          sql`${methodReference} is not null`,
        ),
      )
      .returning({ id: t.id, merchantId: t.merchantId, currency: t.currency, reference: methodReference.as('method_reference') }),
  );
  return {
    cte,
    columns: { merchantId: sql`${cte.merchantId}`, amountCents: amount, currency: sql`${cte.currency}`, processorReference: sql`${cte.reference}` },
  };
}

/** The parameters of a refund's outcome on its transaction: the transaction, the amount and when. */
const REFUND_PARAMS = {
  transactionId: columnParam(t.id),
  amountCents: columnParam(t.refundsInFlightCents),
  now: columnParam(t.updatedAt),
};

/**
 * A refund row made in memory, its id included, for the change that inserts it with its event (`refundRider`) instead
 * of in a statement of its own.
 */
export function newRefundRow(values: Omit<RefundRow, 'id'>): RefundRow {
  return { id: randomUUID(), ...values };
}

const refundWrite = rider('refund', rowParams(refunds), (db, slots) => db.insert(refunds).values(slots).getSQL());

/** The insert of a pending refund made in memory, riding in the statement of the event that reserves it (recordChange's `riders`). */
export function refundRider(refund: RefundRow): Rider {
  return refundWrite(refund);
}

/** A refund as its outcome leaves it: succeeded, or failed with the processor's code. */
export type FinishedRefundRow = RefundRow & ({ status: 'succeeded'; failureCode: null } | { status: 'failed'; failureCode: string });

const outcomeWrite = guardedRider(
  'refund_outcome',
  {
    id: columnParam(refunds.id),
    status: columnParam(refunds.status),
    failureCode: columnParam(refunds.failureCode),
    processorReference: columnParam(refunds.processorReference),
    updatedAt: columnParam(refunds.updatedAt),
  },
  (db, slots) =>
    db
      .update(refunds)
      .set({ status: slots.status, failureCode: slots.failureCode, processorReference: slots.processorReference, updatedAt: slots.updatedAt })
      .where(and(eq(refunds.id, slots.id), eq(refunds.status, 'pending')))
      .returning({ id: refunds.id })
      .getSQL(),
);

/**
 * A refund's outcome written on its row, riding in the statement of the event that records it, and only while the
 * refund is pending. Its recorder writes it beside its processor request's move to done, so a second recorder is
 * refused by both and told AlreadyRecordedError by the move; this refusal alone is a broken invariant.
 */
export function refundOutcomeRider(refund: FinishedRefundRow): Rider {
  const { id, status, failureCode, processorReference, updatedAt } = refund;
  return outcomeWrite(
    { id, status, failureCode, processorReference, updatedAt },
    () => new Error(`refund ${refund.refundId} is no longer pending: its outcome was recorded before this one`),
  );
}

/**
 * The view with a refund the change inserts with its event (`refundRider`), placed where the view's read places it
 * (oldest first, then by id), so the event shows the refunds as the database then holds them.
 */
export function withRefund(view: TransactionView, refund: RefundRow): TransactionView {
  return { ...view, refunds: [...view.refunds, refund].sort(byCreation) };
}

/** The view with a refund's outcome the change writes with its event (`refundOutcomeRider`). */
export function withFinishedRefund(view: TransactionView, refund: FinishedRefundRow): TransactionView {
  if (!view.refunds.some((r) => r.id === refund.id)) throw new Error(`refund ${refund.refundId} is not on transaction ${view.row.id}`);
  return { ...view, refunds: view.refunds.map((r) => (r.id === refund.id ? refund : r)) };
}

/** The order of the view's refunds: created_at, then id (a uuid compares as its lowercase text does). */
function byCreation(a: RefundRow, b: RefundRow): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The processor gave a reserved refund back: its reservation becomes refunded money, and the transaction reads
 * Refunded once nothing settled is left, PartiallyRefunded before. Answers the view as the write left it.
 */
export async function settleRefund(db: Queryable, transactionId: string, amountCents: number, now: Date): Promise<TransactionView | null> {
  const [view] = await settleStatement(db, { transactionId, amountCents, now });
  return view ?? null;
}

const settleStatement = writeReturningView(REFUND_PARAMS, (db, slots) => {
  const amount = slots.amountCents;
  const all = sql`${t.refundedCents} + ${amount} = ${settled}`;
  return db
    .update(t)
    .set({
      refundedCents: sql`${t.refundedCents} + ${amount}`,
      refundsInFlightCents: sql`${t.refundsInFlightCents} - ${amount}`,
      status: sql`case when ${all} then ${sql.raw(String(Status.Refunded))} else ${sql.raw(String(Status.PartiallyRefunded))} end`,
      sequence: nextSequence(),
      updatedAt: slots.now,
    })
    .where(and(eq(t.id, slots.transactionId), sql`${t.refundsInFlightCents} >= ${amount}`))
    .returning();
});

/** The processor refused a reserved refund: the reservation is freed; the status stays, the sequence moves (the refund failed). */
export async function dropRefund(db: Queryable, transactionId: string, amountCents: number, now: Date): Promise<TransactionView | null> {
  const [view] = await dropStatement(db, { transactionId, amountCents, now });
  return view ?? null;
}

const dropStatement = writeReturningView(REFUND_PARAMS, (db, slots) => {
  const amount = slots.amountCents;
  return db
    .update(t)
    .set({
      refundsInFlightCents: sql`${t.refundsInFlightCents} - ${amount}`,
      sequence: nextSequence(),
      updatedAt: slots.now,
    })
    .where(and(eq(t.id, slots.transactionId), sql`${t.refundsInFlightCents} >= ${amount}`))
    .returning();
});
