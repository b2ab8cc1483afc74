import { systemClock, type Clock } from '../../clock';
import { hashCredential } from '../../auth/credential-hash';
import type { SessionTokenResolver } from '../../realtime/session-token';
import { findLatestSessionTransaction, findLiveSessionByToken } from './sdk-sessions.queries';

/**
 * The grant behind `?session=<token>` on the websocket: the newest transaction the live session created, watched from
 * the origin the session was started from. Null (the upgrade answers 401) for an unknown or expired token, or a
 * session that has not paid yet: the widget connects once its payment exists.
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
