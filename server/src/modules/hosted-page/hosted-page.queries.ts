import { Status } from '@svc/protocol';
import { and, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { reusableQuery } from '../../db/reusable-query';
import { merchants, paymentTokens, transactions } from '../../db/schema';
import type { GuardedWrite } from '../processor-requests';
import { LINK_PAYABLE_METHOD_TYPES, LINK_PAYABLE_STATUSES } from './link-payable';
import { consumerPaymentMark, nextSequence, noConsumerPaymentInFlight, writeReturningView, type TransactionView } from '../transactions';

const linkForConsumer = reusableQuery('link_for_consumer', (db) =>
  db
    .select({ row: transactions, businessName: merchants.name, lastFourDigits: paymentTokens.lastFourDigits })
    .from(transactions)
    .innerJoin(merchants, eq(merchants.id, transactions.merchantId))
    .leftJoin(paymentTokens, eq(paymentTokens.transactionId, transactions.id))
    .where(eq(transactions.linkId, sql.placeholder('linkId')))
    .limit(1),
);

/** What the consumer's page shows of a payment link's transaction. */
export async function findLinkForConsumer(db: Queryable, linkId: string) {
  const [row] = await linkForConsumer(db, { linkId });
  return row ?? null;
}

export type ConsumerOutcome =
  | { kind: 'sold'; paymentType: string; processor: string; confirmation: object }
  | {
      kind: 'authorized';
      paymentType: string;
      processor: string;
      confirmation: object;
      authorizedCents: number;
      holdExpiresAt: Date;
      supportsCloseAuth: boolean;
    }
  | { kind: 'declined'; paymentType: string; processor: string }
  | { kind: 'failed'; paymentType: string; processor: string };

const STATUS_OF = { sold: Status.Approved, authorized: Status.Authorized, declined: Status.Declined, failed: Status.Failed } as const;

/**
 * The consumer's payment goes to the processor: the guarded write that marks it in flight, for the statement that
 * also queues its processor request (payAfterCommit). The link must still be payable and no other payment of it in
 * flight (one whose process stopped counts as over after CONSUMER_PAYMENT_STALE_S). The row is not held while the
 * processor decides; `applyConsumerOutcome` records what it decided.
 */
export function startConsumerPayment(linkId: string, now: Date): GuardedWrite {
  return { name: 'consumer_payment_mark', build: consumerPaymentMarkWrite, values: { linkId, now: now.toISOString() } };
}

function consumerPaymentMarkWrite(db: Queryable) {
  const cte = db.$with('guarded').as(
    db
      .update(transactions)
      .set({ consumerPaymentSince: consumerPaymentMark })
      .where(
        and(
          eq(transactions.linkId, sql.placeholder('linkId')),
          inArray(transactions.methodType, [...LINK_PAYABLE_METHOD_TYPES]),
          inArray(transactions.status, [...LINK_PAYABLE_STATUSES]),
          or(isNull(transactions.timeoutAt), sql`${transactions.timeoutAt} > ${sql.placeholder('now')}::timestamptz`),
          isNotNull(transactions.amountCents),
          noConsumerPaymentInFlight(),
        ),
      )
      .returning({
        id: transactions.id,
        since: transactions.consumerPaymentSince,
        merchantId: transactions.merchantId,
        methodType: transactions.methodType,
        amountCents: transactions.amountCents,
        currency: transactions.currency,
      }),
  );
  return {
    cte,
    // The mark is the database's wall-clock time: the payment request keeps it, to end this payment and no other.
    details: sql`jsonb_build_object('consumerPaymentSince', ${cte.since})`,
    // What the processor is asked for is the link's, as the write found it.
    columns: {
      merchantId: sql`${cte.merchantId}`,
      operation: sql`case when ${cte.methodType} = 'sale' then 'sale' else 'authorize' end`,
      amountCents: sql`${cte.amountCents}`,
      currency: sql`${cte.currency}`,
    },
  };
}

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
    confirmation: 'confirmation' in outcome ? JSON.stringify(outcome.confirmation) : null,
    startedAt: startedAt.toISOString(),
    now: now.toISOString(),
  };
  const [view] =
    outcome.kind === 'authorized'
      ? await outcomeWithHold(db, {
          ...values,
          authorizedCents: outcome.authorizedCents,
          holdExpiresAt: outcome.holdExpiresAt.toISOString(),
          supportsCloseAuth: outcome.supportsCloseAuth,
        })
      : await outcomeWithoutHold(db, values);
  return view ?? null;
}

/** The two column sets of a consumer outcome (an authorization places a hold; the rest do not), each built once. */
const outcomeWithoutHold = consumerOutcomeStatement(false);
const outcomeWithHold = consumerOutcomeStatement(true);

function consumerOutcomeStatement(placesHold: boolean) {
  return writeReturningView((db) => {
    const hold = placesHold
      ? {
          authStatus: sql`'active'`,
          authorizedCents: sql`${sql.placeholder('authorizedCents')}::bigint`,
          holdExpiresAt: sql`${sql.placeholder('holdExpiresAt')}::timestamptz`,
          supportsCloseAuth: sql`${sql.placeholder('supportsCloseAuth')}::boolean`,
        }
      : {};
    return db
      .update(transactions)
      .set({
        status: sql`${sql.placeholder('status')}::smallint`,
        paymentType: sql`${sql.placeholder('paymentType')}::text`,
        processor: sql`${sql.placeholder('processor')}::text`,
        confirmation: sql`${sql.placeholder('confirmation')}::jsonb`,
        ...hold,
        consumerPaymentSince: sql`null`,
        sequence: nextSequence(),
        updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
      })
      .where(
        and(
          eq(transactions.id, sql.placeholder('transactionId')),
          inArray(transactions.status, [...LINK_PAYABLE_STATUSES]),
          sql`${transactions.consumerPaymentSince} = ${sql.placeholder('startedAt')}::timestamptz`,
        ),
      )
      .returning();
  });
}
