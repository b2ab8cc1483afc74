import { systemClock, type Clock } from '../clock';
import type { Database } from '../db/client';
import { hashCredential } from '../modules/merchants';
import { findLatestSessionTransaction, findLiveSessionByToken } from '../modules/sdk-sessions';

/** What an SDK session token lets a browser's socket see: one transaction, from the client ID's allowed origins. */
export interface SessionGrant {
  merchantId: string;
  transactionId: string;
  transactionNumber: string;
  /** The client ID's allowed origins: the upgrade's `Origin` must be one of them. */
  allowedOrigins: string[];
}

export type SessionTokenResolver = (db: Database, token: string) => Promise<SessionGrant | null>;

/**
 * The grant behind `?session=<token>`: the newest transaction the live session created, watched from the origin
 * the session was started from. Null (the upgrade answers 401) for an unknown or expired token, or a session that
 * has not paid yet: the widget connects once its payment exists.
 */
export function sessionTokenResolver(clock: Clock = systemClock): SessionTokenResolver {
  return async (db, token) => {
    const session = await findLiveSessionByToken(db, hashCredential(token), clock.now());
    if (!session) return null;
    const latest = await findLatestSessionTransaction(db, session.id);
    if (!latest) return null;
    return {
      merchantId: session.merchantId,
      transactionId: latest.transactionId,
      transactionNumber: latest.transactionNumber,
      allowedOrigins: [session.origin],
    };
  };
}

export const resolveSessionToken: SessionTokenResolver = sessionTokenResolver();
