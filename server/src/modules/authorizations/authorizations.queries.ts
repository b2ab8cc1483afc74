import { Status } from '@svc/protocol';
import { and, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { reusableQuery } from '../../db/reusable-query';
import { paymentTokens, transactions } from '../../db/schema';
import type { PaymentTokenRow } from '../payments';
import type { Principal } from '../../auth/principal';
import { nextSequence, writeReturningView, type TransactionRow, type TransactionView } from '../transactions';

const t = transactions;
const available = sql`${t.authorizedCents} - ${t.capturedCents} - ${t.releasedCents}`;

function tokenScoped(byBranch: boolean) {
  return reusableQuery(`token_for_${byBranch ? 'branch' : 'merchant'}`, (db) =>
    db
      .select({ token: paymentTokens, transaction: transactions })
      .from(paymentTokens)
      .innerJoin(transactions, eq(transactions.id, paymentTokens.transactionId))
      .where(
        and(
          eq(paymentTokens.token, sql.placeholder('token')),
          eq(paymentTokens.merchantId, sql.placeholder('merchantId')),
          byBranch ? eq(paymentTokens.branchId, sql.placeholder('branchId')) : undefined,
        ),
      )
      .limit(1),
  );
}
const tokenForMerchant = tokenScoped(false);
const tokenForBranch = tokenScoped(true);

/** A token the caller may use, with the transaction it belongs to. Branch keys see their branch's only. */
export async function findTokenForPrincipal(db: Queryable, principal: Principal, token: string) {
  const [row] =
    principal.kind === 'branch_key'
      ? await tokenForBranch(db, { token, merchantId: principal.merchantId, branchId: principal.branchId })
      : await tokenForMerchant(db, { token, merchantId: principal.merchantId });
  return row ?? null;
}

export async function findTokenOfTransaction(db: Queryable, transactionId: string): Promise<PaymentTokenRow | null> {
  const [row] = await db.select().from(paymentTokens).where(eq(paymentTokens.transactionId, transactionId)).limit(1);
  return row ?? null;
}

/** The row, locked until the change's transaction ends: what it holds cannot move under the caller. */
export async function lockTransaction(db: Queryable, transactionId: string): Promise<TransactionRow> {
  const [row] = await db.select().from(transactions).where(eq(transactions.id, transactionId)).limit(1).for('update');
  return row!;
}

export async function readTransaction(db: Queryable, transactionId: string): Promise<TransactionRow> {
  const [row] = await db.select().from(transactions).where(eq(transactions.id, transactionId)).limit(1);
  return row!;
}

/**
 * Capture if it fits, as one guarded statement: the hold must be active and unexpired and `amount` at most what
 * it still holds. Concurrent captures serialise on the row and each re-checks the guard, so together they never
 * take more than the hold. PartiallyCaptured while something is left, Captured (and the hold `captured`) when nothing is.
 */
export async function captureAgainstHold(db: Queryable, transactionId: string, amountCents: number, now: Date): Promise<TransactionView | null> {
  const [view] = await captureStatement(db, { transactionId, amountCents, now: now.toISOString() });
  return view ?? null;
}

const captureStatement = writeReturningView((db) => {
  const amount = sql`${sql.placeholder('amountCents')}::bigint`;
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  const usesItUp = sql`${t.capturedCents} + ${t.releasedCents} + ${amount} = ${t.authorizedCents}`;
  return db
    .update(t)
    .set({
      capturedCents: sql`${t.capturedCents} + ${amount}`,
      status: sql`case when ${usesItUp} then ${sql.raw(String(Status.Captured))} else ${sql.raw(String(Status.PartiallyCaptured))} end`,
      authStatus: sql`case when ${usesItUp} then 'captured' else 'active' end`,
      sequence: nextSequence(),
      updatedAt: now,
    })
    .where(and(eq(t.id, sql.placeholder('transactionId')), eq(t.authStatus, 'active'), sql`${t.holdExpiresAt} > ${now}`, sql`${available} >= ${amount}`))
    .returning();
});

/** Releases what an active, unexpired hold still holds and ends it with `status`/`authStatus` (void, closeAuth). */
async function endHold(
  db: Queryable,
  transactionId: string,
  now: Date,
  end: { status: typeof Status.Voided | typeof Status.AuthorizationClosed; authStatus: 'voided' | 'closed' },
  extraGuard?: ReturnType<typeof sql>,
): Promise<TransactionRow | null> {
  const [row] = await db
    .update(t)
    .set({
      releasedCents: sql`${t.authorizedCents} - ${t.capturedCents}`,
      status: end.status,
      authStatus: end.authStatus,
      sequence: nextSequence(),
      updatedAt: now,
    })
    .where(and(eq(t.id, transactionId), eq(t.authStatus, 'active'), gt(t.holdExpiresAt, now), extraGuard))
    .returning();
  return row ?? null;
}

export function voidHold(db: Queryable, transactionId: string, now: Date) {
  return endHold(db, transactionId, now, { status: Status.Voided, authStatus: 'voided' });
}

/** closeAuth's preconditions in the guard: a capture was made, something is left, and the processor supports it. */
export function closeHold(db: Queryable, transactionId: string, now: Date) {
  return endHold(
    db,
    transactionId,
    now,
    { status: Status.AuthorizationClosed, authStatus: 'closed' },
    sql`${t.capturedCents} > 0 and ${available} > 0 and ${t.supportsCloseAuth}`,
  );
}

/**
 * Re-authorization: releases what the current hold still holds and adds a new hold of `amount`, expiring at
 * `expiresAt`. Allowed from Authorized, PartiallyCaptured and Expired.
 */
export async function reauthorizeHold(db: Queryable, transactionId: string, amountCents: number, expiresAt: Date, now: Date): Promise<TransactionRow | null> {
  const [row] = await db
    .update(t)
    .set({
      releasedCents: sql`${t.authorizedCents} - ${t.capturedCents}`,
      authorizedCents: sql`${t.authorizedCents} + ${amountCents}`,
      status: Status.Authorized,
      authStatus: 'active',
      holdExpiresAt: expiresAt,
      sequence: nextSequence(),
      updatedAt: now,
    })
    .where(
      and(
        eq(t.id, transactionId),
        inArray(t.status, [Status.Authorized, Status.PartiallyCaptured, Status.Expired]),
        or(eq(t.authStatus, 'active'), eq(t.authStatus, 'expired')),
      ),
    )
    .returning();
  return row ?? null;
}
