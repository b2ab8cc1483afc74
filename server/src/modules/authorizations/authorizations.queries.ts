import { Status } from '@svc/protocol';
import { and, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { columnParam, param, reusableQuery, type ParamSlots } from '../../db/reusable-query';
import { paymentTokens, transactions } from '../../db/schema';
import type { PaymentTokenRow } from '../payments';
import { guardedWrite, type GuardedWrite } from '../processor-requests/sql';
import type { Principal } from '../../auth/principal';
import { nextSequence, writeReturningView, type TransactionRow, type TransactionView } from '../transactions/sql';

/** What a new capture may take: captures at the processor (capture_pending) are already spoken for. */
const available = sql`${transactions.authorizedCents} - ${transactions.capturedCents} - ${transactions.releasedCents} - ${transactions.capturePendingCents}`;
/** What ending a hold releases: everything not captured and not being captured. */
const unreleased = sql`${transactions.authorizedCents} - ${transactions.capturedCents} - ${transactions.capturePendingCents}`;

/** The parameters that name a token in a caller's scope (`tokenInScope`). */
const TOKEN_PARAMS = {
  token: columnParam(paymentTokens.token),
  merchantId: columnParam(paymentTokens.merchantId),
  branchId: columnParam(paymentTokens.branchId),
};

/**
 * The token a caller may use, on the slots of `TOKEN_PARAMS` (`branchId` for a branch key only): its merchant's, and
 * a branch key's own branch's only. The one scope of every statement that takes a token from a merchant's request.
 */
function tokenInScope(slots: ParamSlots<typeof TOKEN_PARAMS>, byBranch: boolean): SQL {
  return and(
    eq(paymentTokens.token, slots.token),
    eq(paymentTokens.merchantId, slots.merchantId),
    byBranch ? eq(paymentTokens.branchId, slots.branchId) : undefined,
  )!;
}

function tokenScoped(byBranch: boolean) {
  return reusableQuery(`token_for_${byBranch ? 'branch' : 'merchant'}`, TOKEN_PARAMS, (db, slots) =>
    db
      .select({ token: paymentTokens, transaction: transactions })
      .from(paymentTokens)
      .innerJoin(transactions, eq(transactions.id, paymentTokens.transactionId))
      .where(tokenInScope(slots, byBranch))
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
      : await tokenForMerchant(db, { token, merchantId: principal.merchantId, branchId: null });
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
 * Reserve a capture against the authorization a token names if it fits, as one guarded statement with the token's
 * lookup: the token must be an authorization the caller may use (`tokenInScope`, as `findTokenForPrincipal` scopes it), the
 * currency, when given, the hold's, the hold active and unexpired and `amount` at most what it still holds, captures
 * in flight included, and, when the processor captures an authorization once, no capture made or in flight before it.
 * Concurrent captures serialise on the row and each re-checks the guard, so together they never take more than the
 * hold, nor two of a single-capture processor's. Nothing the merchant sees moves yet: the reservation becomes a capture
 * when the processor approves it (`settleCapture`) or goes back when it refuses (`dropCapture`). The processor request
 * goes in with it and takes its merchant, currency and method from the rows the write found. Any refusal (no such
 * token, a tokenized method, another currency, a hold that cannot take it, a second capture) writes nothing; the caller
 * then looks the token up to say why.
 */
export function reserveCaptureByToken(
  principal: Principal,
  token: string,
  capture: { amountCents: number; currency: string | null; singleCapture: boolean },
  now: Date,
): GuardedWrite {
  const reserve = principal.kind === 'branch_key' ? reserveForBranch : reserveForMerchant;
  return reserve({ token, merchantId: principal.merchantId, branchId: principal.branchId, ...capture, now });
}

/**
 * A capture reservation's parameters: the token in the caller's scope, the amount, the currency (null: the hold's),
 * whether the processor captures an authorization once (no `multipleCaptures`), when.
 */
const RESERVATION_PARAMS = {
  ...TOKEN_PARAMS,
  amountCents: columnParam(transactions.capturePendingCents),
  currency: param.nullable(param.text),
  singleCapture: param.boolean,
  now: param.timestamp,
};
const reserveForMerchant = guardedWrite('capture_reservation_by_token_for_merchant', RESERVATION_PARAMS, (db, slots) =>
  captureReservationByToken(db, slots, false),
);
const reserveForBranch = guardedWrite('capture_reservation_by_token_for_branch', RESERVATION_PARAMS, (db, slots) => captureReservationByToken(db, slots, true));

function captureReservationByToken(db: Queryable, slots: ParamSlots<typeof RESERVATION_PARAMS>, byBranch: boolean) {
  const tokens = paymentTokens;
  const amount = slots.amountCents;
  // The token is looked up by a subquery (its unique index) and the row then read by its primary key. The guard is
  // a CASE so that the planner cannot match it to the active holds' partial index, which a plain guard lets it pick
  // (a scan of every active hold, and of the entries of holds captured since the last vacuum).
  const heldBy = sql`(select ${tokens.transactionId} from ${tokens} where ${tokenInScope(slots, byBranch)} and ${tokens.type} = 'authorization')`;
  const cte = db.$with('guarded').as(
    db
      .update(transactions)
      .set({ capturePendingCents: sql`${transactions.capturePendingCents} + ${amount}` })
      .where(
        and(
          sql`${transactions.id} = ${heldBy}`,
          sql`case when ${and(
            sql`(${slots.currency} is null or ${transactions.currency} = ${slots.currency})`,
            eq(transactions.authStatus, 'active'),
            sql`${transactions.holdExpiresAt} > ${slots.now}`,
            sql`${available} >= ${amount}`,
            // A processor that captures once: only the first capture, none other made or at the processor.
            sql`(not ${slots.singleCapture} or (${transactions.capturePendingCents} = 0 and ${transactions.capturedCents} = 0))`,
          )} then true else false end`,
        ),
      )
      .returning({ id: transactions.id, merchantId: transactions.merchantId, currency: transactions.currency }),
  );
  const method = sql`(select ${tokens.processorReference} from ${tokens} where ${tokens.token} = ${slots.token})`;
  return { cte, columns: { merchantId: sql`${cte.merchantId}`, amountCents: amount, currency: sql`${cte.currency}`, processorReference: method } };
}

/**
 * The processor approved a reserved capture: the reservation becomes captured money. On a hold still active,
 * PartiallyCaptured while something is left, Captured (and the hold `captured`) when nothing is. No hold ends while a
 * capture is in flight (void, closeAuth and the expiry wait for it); one that did (a row from before that rule) keeps
 * its status.
 */
export async function settleCapture(
  db: Queryable,
  transactionId: string,
  amountCents: number,
  now: Date,
  { closesHold = false }: { closesHold?: boolean } = {},
): Promise<TransactionView | null> {
  const [view] = await settleStatement(db, { transactionId, amountCents, now, closesHold });
  return view ?? null;
}

/**
 * settleCapture's write, built once; it answers the transaction's view in its own statement (`writeReturningView`).
 * `closesHold`: the processor captures once (no `multipleCaptures`), and gave back the rest of the hold with this
 * capture, so a partial capture also ends the hold as closed (9), what it held besides captures in flight released.
 */
const settleStatement = writeReturningView(
  {
    transactionId: columnParam(transactions.id),
    amountCents: columnParam(transactions.capturedCents),
    now: columnParam(transactions.updatedAt),
    closesHold: param.boolean,
  },
  (db, slots) => {
    const amount = slots.amountCents;
    const active = sql`${transactions.authStatus} = 'active'`;
    const usesItUp = sql`${active} and ${transactions.capturedCents} + ${transactions.releasedCents} + ${amount} = ${transactions.authorizedCents}`;
    const closes = sql`${active} and ${slots.closesHold}`;
    const rest = sql`${transactions.authorizedCents} - ${transactions.capturedCents} - ${transactions.releasedCents} - ${transactions.capturePendingCents}`;
    return db
      .update(transactions)
      .set({
        capturedCents: sql`${transactions.capturedCents} + ${amount}`,
        capturePendingCents: sql`${transactions.capturePendingCents} - ${amount}`,
        releasedCents: sql`case when ${closes} and not (${usesItUp}) then ${transactions.releasedCents} + ${rest} else ${transactions.releasedCents} end`,
        status: sql`case when ${usesItUp} then ${sql.raw(String(Status.Captured))} when ${closes} then ${sql.raw(String(Status.AuthorizationClosed))} when ${active} then ${sql.raw(String(Status.PartiallyCaptured))} else ${transactions.status} end`,
        authStatus: sql`case when ${usesItUp} then 'captured' when ${closes} then 'closed' else ${transactions.authStatus} end`,
        sequence: nextSequence(),
        updatedAt: slots.now,
      })
      .where(and(eq(transactions.id, slots.transactionId), sql`${transactions.capturePendingCents} >= ${amount}`))
      .returning();
  },
);

/**
 * The processor refused a reserved capture: the reservation goes back to the hold. If the hold ended while the
 * capture was in flight, it is released instead (and the caller releases it at the processor); only that is a
 * change the merchant sees, so only then does the sequence move. Returns the row and whether it was released.
 */
export async function dropCapture(
  db: Queryable,
  transactionId: string,
  amountCents: number,
  now: Date,
): Promise<{ row: TransactionRow; released: boolean } | null> {
  const ended = sql`${transactions.authStatus} <> 'active'`;
  const [row] = await db
    .update(transactions)
    .set({
      capturePendingCents: sql`${transactions.capturePendingCents} - ${amountCents}`,
      releasedCents: sql`case when ${ended} then ${transactions.releasedCents} + ${amountCents} else ${transactions.releasedCents} end`,
      sequence: sql`case when ${ended} then ${transactions.sequence} + 1 else ${transactions.sequence} end`,
      updatedAt: sql`case when ${ended} then ${now.toISOString()}::timestamptz else ${transactions.updatedAt} end`,
    })
    .where(and(eq(transactions.id, transactionId), sql`${transactions.capturePendingCents} >= ${amountCents}`))
    .returning();
  return row ? { row, released: row.authStatus !== 'active' } : null;
}

/**
 * Releases what an active, unexpired hold still holds and ends it with `status`/`authStatus` (void, closeAuth), never
 * while a capture is in flight: that capture either wins entirely (recorded first, the hold ended after it, or used
 * up) or is refused, so a hold is never ended under a capture that is then recorded. The caller words the refusal.
 */
async function endHold(
  db: Queryable,
  transactionId: string,
  now: Date,
  end: { status: typeof Status.Voided | typeof Status.AuthorizationClosed; authStatus: 'voided' | 'closed' },
  extraGuard?: ReturnType<typeof sql>,
): Promise<TransactionRow | null> {
  const [row] = await db
    .update(transactions)
    .set({ releasedCents: unreleased, status: end.status, authStatus: end.authStatus, sequence: nextSequence(), updatedAt: now })
    .where(
      and(
        eq(transactions.id, transactionId),
        eq(transactions.authStatus, 'active'),
        gt(transactions.holdExpiresAt, now),
        eq(transactions.capturePendingCents, 0),
        extraGuard,
      ),
    )
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
    sql`${transactions.capturedCents} > 0 and ${available} > 0 and ${transactions.supportsCloseAuth}`,
  );
}

/**
 * A re-authorization's intent, before the processor is asked for the new hold: the authorization is locked (so a void
 * or a capture reservation being made is waited for) and must then be re-authorizable with no capture in flight. Its
 * processor request goes in with it in one statement, or nothing does; the caller then reads why.
 */
export function reauthorizationIntent(transactionId: string): GuardedWrite {
  return reauthorizationIntentLock({ transactionId });
}

const reauthorizationIntentLock = guardedWrite('reauthorization_intent', { transactionId: columnParam(transactions.id) }, (db, slots) => {
  const cte = db.$with('guarded').as(
    db
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.id, slots.transactionId), reauthorizable))
      .for('update'),
  );
  return { cte };
});

/**
 * What a re-authorization needs of the row: status 5, 6 or 11, a hold active or expired, no capture in flight, and no
 * refund of an expired authorization's captures in flight (its outcome moves the status to 13 or 14).
 */
const reauthorizable = and(
  inArray(transactions.status, [Status.Authorized, Status.PartiallyCaptured, Status.Expired]),
  or(eq(transactions.authStatus, 'active'), eq(transactions.authStatus, 'expired')),
  eq(transactions.capturePendingCents, 0),
  eq(transactions.refundsInFlightCents, 0),
)!;

/**
 * Re-authorization: releases what the current hold still holds and adds a new hold of `amount`, expiring at
 * `expiresAt`. Allowed from Authorized, PartiallyCaptured and Expired, and never while a capture is in flight (a
 * declined capture puts its reservation back on the hold, which would then be more than the new hold).
 */
export async function reauthorizeHold(db: Queryable, transactionId: string, amountCents: number, expiresAt: Date, now: Date): Promise<TransactionRow | null> {
  const [row] = await db
    .update(transactions)
    .set({
      releasedCents: unreleased,
      authorizedCents: sql`${transactions.authorizedCents} + ${amountCents}`,
      status: Status.Authorized,
      authStatus: 'active',
      holdExpiresAt: expiresAt,
      sequence: nextSequence(),
      updatedAt: now,
    })
    .where(and(eq(transactions.id, transactionId), reauthorizable))
    .returning();
  return row ?? null;
}
