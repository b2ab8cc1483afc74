import { Status } from '@svc/protocol';
import { and, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { columnParam, param, reusableQuery, type ParamSlots } from '../../db/reusable-query';
import { merchants, paymentTokens, transactions } from '../../db/schema';
import { guardedWrite, type GuardedWrite } from '../processor-requests/sql';
import { LINK_PAYABLE_METHOD_TYPES, LINK_PAYABLE_STATUSES } from './link-payable';
import { consumerPaymentMark, nextSequence, noConsumerPaymentInFlight, writeReturningView, type TransactionView } from '../transactions/sql';

const linkForConsumer = reusableQuery('link_for_consumer', { linkId: columnParam(transactions.linkId) }, (db, slots) =>
  db
    .select({ row: transactions, businessName: merchants.name, lastFourDigits: paymentTokens.lastFourDigits })
    .from(transactions)
    .innerJoin(merchants, eq(merchants.id, transactions.merchantId))
    .leftJoin(paymentTokens, eq(paymentTokens.transactionId, transactions.id))
    .where(eq(transactions.linkId, slots.linkId))
    .limit(1),
);

/** What the consumer's page shows of a payment link's transaction. */
export async function findLinkForConsumer(db: Queryable, linkId: string) {
  const [row] = await linkForConsumer(db, { linkId });
  return row ?? null;
}

export type ConsumerOutcome =
  | { kind: 'sold'; paymentType: string; processor: string; confirmation: object; processorReference: string }
  | {
      kind: 'authorized';
      paymentType: string;
      processor: string;
      confirmation: object;
      authorizedCents: number;
      holdExpiresAt: Date;
      supportsCloseAuth: boolean;
    }
  | { kind: 'declined'; paymentType: string; processor: string; code: string; processorCode: string | null }
  | { kind: 'failed'; paymentType: string; processor: string };

const STATUS_OF = { sold: Status.Approved, authorized: Status.Authorized, declined: Status.Declined, failed: Status.Failed } as const;

/**
 * The consumer's payment goes to the processor: the guarded write that marks it in flight, for the statement that
 * also queues its processor request (payAfterCommit). The link must still be payable and no other payment of it in
 * flight (one whose process stopped counts as over after CONSUMER_PAYMENT_STALE_S). The row is not held while the
 * processor decides; `applyConsumerOutcome` records what it decided.
 */
export function startConsumerPayment(linkId: string, now: Date): GuardedWrite {
  return consumerPaymentMarkWrite({ linkId, now });
}

const consumerPaymentMarkWrite = guardedWrite('consumer_payment_mark', { linkId: columnParam(transactions.linkId), now: param.timestamp }, (db, slots) => {
  const cte = db.$with('guarded').as(
    db
      .update(transactions)
      .set({ consumerPaymentSince: consumerPaymentMark })
      .where(
        and(
          eq(transactions.linkId, slots.linkId),
          inArray(transactions.methodType, [...LINK_PAYABLE_METHOD_TYPES]),
          inArray(transactions.status, [...LINK_PAYABLE_STATUSES]),
          or(isNull(transactions.timeoutAt), sql`${transactions.timeoutAt} > ${slots.now}`),
          isNotNull(transactions.amountCents),
          noConsumerPaymentInFlight(),
        ),
      )
      .returning({
        id: transactions.id,
        since: transactions.consumerPaymentSince,
        transactionNumber: transactions.transactionNumber,
        merchantId: transactions.merchantId,
        methodType: transactions.methodType,
        amountCents: transactions.amountCents,
        currency: transactions.currency,
      }),
  );
  return {
    cte,
    // The mark is the database's wall-clock time: the payment request keeps it, to end this payment and no other. The
    // transaction number is the processor's merchant reference.
    details: sql`jsonb_build_object('consumerPaymentSince', ${cte.since}, 'transactionNumber', ${cte.transactionNumber})`,
    // What the processor is asked for is the link's, as the write found it.
    columns: {
      merchantId: sql`${cte.merchantId}`,
      operation: sql`case when ${cte.methodType} = 'sale' then 'sale' else 'authorize' end`,
      amountCents: sql`${cte.amountCents}`,
      currency: sql`${cte.currency}`,
    },
  };
});

/** The processor did not answer: the payment in flight (the one started at `startedAt`) is over, and the link payable again. */
export async function endConsumerPayment(db: Queryable, transactionId: string, startedAt: Date): Promise<void> {
  await db
    .update(transactions)
    .set({ consumerPaymentSince: null })
    .where(and(eq(transactions.id, transactionId), eq(transactions.consumerPaymentSince, startedAt)));
}

/**
 * The processor's decision on the payment started at `startedAt`, guarded on it still being the one in flight (it
 * was asked while the link was payable, so a time-out reached meanwhile does not undo it). Answers the transaction's
 * view as the write left it, in the write's statement (`writeReturningView`).
 */
export async function applyConsumerOutcome(
  db: Queryable,
  transactionId: string,
  outcome: ConsumerOutcome,
  startedAt: Date,
  now: Date,
): Promise<TransactionView | null> {
  const values = {
    transactionId,
    status: STATUS_OF[outcome.kind],
    paymentType: outcome.paymentType,
    processor: outcome.processor,
    confirmation: 'confirmation' in outcome ? outcome.confirmation : null,
    // A sale keeps the method it was paid with: a refund gives the money back to it.
    processorReference: outcome.kind === 'sold' ? outcome.processorReference : null,
    lastDeclineCode: outcome.kind === 'declined' ? outcome.code : null,
    lastDeclineProcessorCode: outcome.kind === 'declined' ? outcome.processorCode : null,
    startedAt,
    now,
  };
  const [view] =
    outcome.kind === 'authorized'
      ? await outcomeWithHold(db, {
          ...values,
          authorizedCents: outcome.authorizedCents,
          holdExpiresAt: outcome.holdExpiresAt,
          supportsCloseAuth: outcome.supportsCloseAuth,
        })
      : await outcomeWithoutHold(db, values);
  return view ?? null;
}

/** What every consumer outcome writes, and whose payment it is (the one started at `startedAt`). */
const OUTCOME_PARAMS = {
  transactionId: columnParam(transactions.id),
  status: columnParam(transactions.status),
  paymentType: columnParam(transactions.paymentType),
  processor: columnParam(transactions.processor),
  confirmation: columnParam(transactions.confirmation),
  processorReference: columnParam(transactions.processorReference),
  lastDeclineCode: columnParam(transactions.lastDeclineCode),
  lastDeclineProcessorCode: columnParam(transactions.lastDeclineProcessorCode),
  startedAt: param.timestamp,
  now: columnParam(transactions.updatedAt),
};
/** What an authorization's outcome writes besides: its hold. */
const HOLD_PARAMS = {
  authorizedCents: columnParam(transactions.authorizedCents),
  holdExpiresAt: param.timestamp,
  supportsCloseAuth: columnParam(transactions.supportsCloseAuth),
};

/** The two column sets of a consumer outcome (an authorization places a hold; the rest do not), each built once. */
const outcomeWithoutHold = writeReturningView(OUTCOME_PARAMS, (db, slots) => consumerOutcomeWrite(db, slots, {}));
const outcomeWithHold = writeReturningView({ ...OUTCOME_PARAMS, ...HOLD_PARAMS }, (db, slots) =>
  consumerOutcomeWrite(db, slots, {
    authStatus: sql`'active'`,
    authorizedCents: slots.authorizedCents,
    holdExpiresAt: slots.holdExpiresAt,
    supportsCloseAuth: slots.supportsCloseAuth,
  }),
);

function consumerOutcomeWrite(db: Queryable, slots: ParamSlots<typeof OUTCOME_PARAMS>, hold: Record<string, SQL>) {
  return db
    .update(transactions)
    .set({
      status: slots.status,
      paymentType: slots.paymentType,
      processor: slots.processor,
      confirmation: slots.confirmation,
      processorReference: sql`coalesce(${slots.processorReference}, ${transactions.processorReference})`,
      // The most recent decline stays until another one replaces it (an approval after it does not erase why the last attempt failed).
      lastDeclineCode: sql`coalesce(${slots.lastDeclineCode}, ${transactions.lastDeclineCode})`,
      lastDeclineProcessorCode: sql`case when ${slots.lastDeclineCode} is null then ${transactions.lastDeclineProcessorCode} else ${slots.lastDeclineProcessorCode} end`,
      ...hold,
      consumerPaymentSince: sql`null`,
      sequence: nextSequence(),
      updatedAt: slots.now,
    })
    .where(
      and(
        eq(transactions.id, slots.transactionId),
        // A payment that waited for the consumer's bank (AwaitingAuthentication) is decided the same way, on its same mark.
        inArray(transactions.status, [...LINK_PAYABLE_STATUSES, Status.AwaitingAuthentication]),
        sql`${transactions.consumerPaymentSince} = ${slots.startedAt}`,
      ),
    )
    .returning();
}

/**
 * The processor asked for 3-D Secure: the link's payment waits for the consumer's bank (AwaitingAuthentication), its
 * in-flight mark kept, so nothing else pays, cancels or times the link out meanwhile; the authentication's end decides
 * it on that mark (`applyConsumerOutcome`).
 */
export const awaitAuthentication = writeReturningView(
  {
    transactionId: columnParam(transactions.id),
    processor: columnParam(transactions.processor),
    startedAt: param.timestamp,
    now: columnParam(transactions.updatedAt),
  },
  (db, slots) =>
    db
      .update(transactions)
      .set({
        status: sql`${Status.AwaitingAuthentication}`,
        processor: slots.processor,
        paymentType: sql`'card'`,
        sequence: nextSequence(),
        updatedAt: slots.now,
      })
      .where(
        and(
          eq(transactions.id, slots.transactionId),
          inArray(transactions.status, [...LINK_PAYABLE_STATUSES]),
          sql`${transactions.consumerPaymentSince} = ${slots.startedAt}`,
        ),
      )
      .returning(),
);
