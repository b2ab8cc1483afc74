import { and, desc, eq, getTableColumns, gt, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { apiCredentials, sdkSessions, transactions } from '../../db/schema';

export type SdkSessionRow = typeof sdkSessions.$inferSelect;

export async function insertSession(db: Queryable, values: typeof sdkSessions.$inferInsert): Promise<SdkSessionRow> {
  const [row] = await db.insert(sdkSessions).values(values).returning();
  return row!;
}

/** Sessions whose client ID is still live: revoking a client ID ends the sessions it started. */
const liveSessions = (db: Queryable) =>
  db
    .select(getTableColumns(sdkSessions))
    .from(sdkSessions)
    .innerJoin(apiCredentials, and(eq(apiCredentials.id, sdkSessions.clientCredentialId), isNull(apiCredentials.revokedAt)));

/** The live session with this id whose token hashes to `tokenHash`. */
export async function findLiveSession(db: Queryable, sessionId: string, tokenHash: Buffer, now: Date): Promise<SdkSessionRow | null> {
  const [row] = await liveSessions(db)
    .where(and(eq(sdkSessions.id, sessionId), eq(sdkSessions.tokenHash, tokenHash), gt(sdkSessions.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

/** A live session by its token alone (the websocket's `?session=`). */
export async function findLiveSessionByToken(db: Queryable, tokenHash: Buffer, now: Date): Promise<SdkSessionRow | null> {
  const [row] = await liveSessions(db)
    .where(and(eq(sdkSessions.tokenHash, tokenHash), gt(sdkSessions.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

/** The newest transaction a session created (its widget watches that one). */
export async function findLatestSessionTransaction(db: Queryable, sessionId: string) {
  const [row] = await db
    .select({ transactionId: transactions.id, transactionNumber: transactions.transactionNumber })
    .from(transactions)
    .where(eq(transactions.sdkSessionId, sessionId))
    .orderBy(desc(transactions.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * The decision on a widget payment that waited for the consumer's bank, guarded on it still waiting
 * (AwaitingAuthentication): the first end of the authentication to commit decides it. Null when none waited.
 */
export async function decideAwaitingSessionPayment(
  db: Queryable,
  d: {
    transactionId: string;
    status: number;
    processor: string;
    supportsCloseAuth: boolean;
    processorReference: string | null;
    confirmation: object | null;
    commitId: string | null;
    commitDeadline: Date | null;
    lastDeclineCode: string | null;
    lastDeclineProcessorCode: string | null;
    now: Date;
  },
): Promise<{ id: string } | null> {
  const approved = d.commitId !== null;
  const [row] = await db
    .update(transactions)
    .set({
      status: d.status as typeof transactions.$inferInsert.status,
      processor: d.processor,
      supportsCloseAuth: d.supportsCloseAuth,
      processorReference: d.processorReference,
      confirmation: d.confirmation,
      commitId: d.commitId,
      commitDeadline: d.commitDeadline,
      approvedCents: approved ? transactions.approvedCents : null,
      lastDeclineCode: sql`coalesce(${d.lastDeclineCode}::text, ${transactions.lastDeclineCode})`,
      lastDeclineProcessorCode: d.lastDeclineCode === null ? transactions.lastDeclineProcessorCode : d.lastDeclineProcessorCode,
      sequence: sql`${transactions.sequence} + 1`,
      updatedAt: d.now,
    })
    .where(and(eq(transactions.id, d.transactionId), eq(transactions.status, 15)))
    .returning({ id: transactions.id });
  return row ?? null;
}
