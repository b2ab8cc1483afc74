import { Status } from '@svc/protocol';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { reusableQuery } from '../../db/reusable-query';
import { merchants, paymentTokens, transactions } from '../../db/schema';
import { nextSequence, type TransactionRow } from '../transactions';

const transactionByLinkForUpdate = reusableQuery('transaction_by_link_for_update', (db) =>
  db.select().from(transactions).where(eq(transactions.linkId, sql.placeholder('linkId'))).limit(1).for('update'),
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
  | { kind: 'authorized'; paymentType: string; processor: string; confirmation: object; authorizedCents: number; holdExpiresAt: Date; supportsCloseAuth: boolean }
  | { kind: 'declined'; paymentType: string; processor: string }
  | { kind: 'failed'; paymentType: string; processor: string };

const STATUS_OF = { sold: Status.Approved, authorized: Status.Authorized, declined: Status.Declined, failed: Status.Failed } as const;

/** Pending → the consumer's outcome, guarded on still being pending and not timed out. */
export async function applyConsumerOutcome(db: Queryable, transactionId: string, outcome: ConsumerOutcome, now: Date): Promise<TransactionRow | null> {
  const authorization =
    outcome.kind === 'authorized'
      ? { authStatus: 'active' as const, authorizedCents: outcome.authorizedCents, holdExpiresAt: outcome.holdExpiresAt, supportsCloseAuth: outcome.supportsCloseAuth }
      : {};
  const [row] = await db
    .update(transactions)
    .set({
      status: STATUS_OF[outcome.kind],
      paymentType: outcome.paymentType,
      processor: outcome.processor,
      confirmation: 'confirmation' in outcome ? outcome.confirmation : null,
      ...authorization,
      sequence: nextSequence(),
      updatedAt: now,
    })
    .where(and(eq(transactions.id, transactionId), eq(transactions.status, Status.Pending), or(isNull(transactions.timeoutAt), gt(transactions.timeoutAt, now))))
    .returning();
  return row ?? null;
}
