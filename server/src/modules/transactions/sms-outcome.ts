import type { Queryable } from '../../db/client';
import { recordChange } from './transaction-events';
import { settleSmsState } from './transactions.queries';

/**
 * The link SMS's fate, once the message sender knows it: a Pending `SMS` reads Sent (the provider accepted it) or
 * Failed (every attempt refused), as an update with its own sequence, event, websocket update and callback. Runs in
 * the database transaction that records the message's outcome; a transaction whose SMS is not Pending is left alone.
 */
export async function recordSmsOutcome(tx: Queryable, transactionId: string, state: 'Sent' | 'Failed', now: Date, baseUrl: string): Promise<boolean> {
  const settled = await settleSmsState(tx, transactionId, state, now);
  if (!settled) return false;
  await recordChange(tx, settled, { at: now, baseUrl });
  return true;
}
