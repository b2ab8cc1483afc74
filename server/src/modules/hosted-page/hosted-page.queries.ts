import { Status } from '@svc/protocol';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { reusableQuery } from '../../db/reusable-query';
import { merchants, paymentTokens, transactions } from '../../db/schema';
import { LINK_PAYABLE_STATUSES } from './link-payable';
import { nextSequence, writeReturningView, type TransactionRow, type TransactionView } from '../transactions';

const transactionByLinkForUpdate = reusableQuery('transaction_by_link_for_update', (db) =>
  db
    .select()
    .from(transactions)
    .where(eq(transactions.linkId, sql.placeholder('linkId')))
    .limit(1)
    .for('update'),
);

/** The transaction behind a payment link, locked: concurrent payments of one link run one after the other. */
export async function lockTransactionByLink(db: Queryable, linkId: string): Promise<TransactionRow | null> {
  const [row] = await transactionByLinkForUpdate(db, { linkId });
  return row ?? null;
}

const linkFace = reusableQuery('link_face', (db) =>
  db
    .select({ row: transactions, businessName: merchants.name, lastFourDigits: paymentTokens.lastFourDigits })
    .from(transactions)
    .innerJoin(merchants, eq(merchants.id, transactions.merchantId))
    .leftJoin(paymentTokens, eq(paymentTokens.transactionId, transactions.id))
    .where(eq(transactions.linkId, sql.placeholder('linkId')))
    .limit(1),
);

/** What the consumer's page shows of a payment link's transaction. */
export async function findLinkFace(db: Queryable, linkId: string) {
  const [row] = await linkFace(db, { linkId });
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
 * Pending (or Declined: a retry) → the consumer's outcome, guarded on still being payable and not timed out. Answers
 * the transaction's view as the write left it (one statement).
 */
export async function applyConsumerOutcome(db: Queryable, transactionId: string, outcome: ConsumerOutcome, now: Date): Promise<TransactionView | null> {
  const values = {
    transactionId,
    status: STATUS_OF[outcome.kind],
    paymentType: outcome.paymentType,
    processor: outcome.processor,
    confirmation: 'confirmation' in outcome ? JSON.stringify(outcome.confirmation) : null,
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
    const now = sql`${sql.placeholder('now')}::timestamptz`;
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
        sequence: nextSequence(),
        updatedAt: now,
      })
      .where(
        and(
          eq(transactions.id, sql.placeholder('transactionId')),
          inArray(transactions.status, [...LINK_PAYABLE_STATUSES]),
          or(isNull(transactions.timeoutAt), sql`${transactions.timeoutAt} > ${now}`),
        ),
      )
      .returning();
  });
}
