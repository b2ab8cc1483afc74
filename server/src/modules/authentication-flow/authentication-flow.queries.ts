import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { sdkSessions, transactions } from '../../db/schema';

/** The link id of a transaction (the page a link's authentication returns to). */
export async function findLinkForConsumerById(db: Queryable, transactionId: string): Promise<string | null> {
  const [row] = await db.select({ linkId: transactions.linkId }).from(transactions).where(eq(transactions.id, transactionId)).limit(1);
  return row?.linkId ?? null;
}

/** The merchant page's origin a widget's session was started from. */
export async function sessionOriginOf(db: Queryable, sessionId: string): Promise<string | null> {
  const [row] = await db.select({ origin: sdkSessions.origin }).from(sdkSessions).where(eq(sdkSessions.id, sessionId)).limit(1);
  return row?.origin ?? null;
}
