import type { Clock } from '../../clock';
import type { Database, Queryable } from '../../db/client';
import type { Env } from '../../env';
import { ApiError } from '../../errors';
import type { Logger } from '../../logger';
import type { WithDecision } from '../../mutations/mutation';
import { deleteAttempt, holdAttemptFor, lockAttemptsOf, markAttemptDeclined, insertAttemptUnlessFull, settleAttemptOf } from './card-testing.queries';

/** Declined attempts a payment link, or an SDK session, takes in SUBJECT_WINDOW_S. */
export const DECLINES_PER_SUBJECT = 5;
export const SUBJECT_WINDOW_S = 30 * 60;
/** The window of DECLINES_PER_ADDRESS_PER_HOUR. */
export const ADDRESS_WINDOW_S = 3600;

export interface CardTestingDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  env: Pick<Env, 'DECLINES_PER_ADDRESS_PER_HOUR'>;
}

/** What a consumer's payment attempt is counted against: what it pays (`link:<linkId>`, `session:<sessionId>`) and where it comes from. */
export interface CardAttempt {
  subject: string;
  clientAddress: string;
}

/** An answer as card testing reads it: its status, and whether it replays one given before. */
export interface AttemptAnswer {
  status: number;
  replayed: boolean;
}

/**
 * Card testing: runs a consumer's payment attempt (`run`, which may ask the processor) unless its link or session
 * already holds DECLINES_PER_SUBJECT declines in the last 30 minutes, or its address DECLINES_PER_ADDRESS_PER_HOUR in
 * the last hour; then it throws 429 too_many_declines with Retry-After, and the processor is not asked.
 *
 * The attempt is written, pending, before `run`, in a transaction that holds the subject's and the address's locks
 * while it counts: attempts still waiting on the processor count as declines, so attempts sent all at once, to any
 * instance on the database, cannot pass the limit together. Once the processor decides, the attempt is kept as
 * declined (`isDecline` of the answer) or deleted, in the transaction that records the decision (`run` passes the
 * settling it is given to the mutation as its `withDecision`): it stops counting exactly when the payment is
 * recorded. An attempt no decision was recorded for (a failure, a refusal before the processor, a replay) is settled
 * by its answer once `run` is over; none of those counts. An attempt whose settling fails (or whose process dies)
 * stays pending, and counts as a decline until it leaves the windows. Nothing of the card is kept; the address is
 * kept only while a window may count it.
 */
export async function limitDeclines<T extends AttemptAnswer>(
  deps: CardTestingDeps,
  attempt: CardAttempt,
  run: (settling: WithDecision) => Promise<T>,
  isDecline: (answer: AttemptAnswer) => boolean,
): Promise<T> {
  const id = await reserveAttempt(deps, attempt);
  let settledWithDecision = false;
  const settling: WithDecision = {
    // A recorded decision is the processor's, never a replay. A 202 waits on the consumer's bank: the attempt stays
    // pending under its authentication, and is settled when that ends (settleAuthenticationAttempt).
    write: (tx, answer) => {
      const waitsOn = answer.status === 202 ? authenticationIdOf(answer.body) : null;
      return waitsOn ? holdAttemptFor(tx, id, waitsOn) : settleIn(tx, id, isDecline({ status: answer.status, replayed: false }));
    },
    committed: () => {
      settledWithDecision = true;
    },
  };
  let declined = false;
  try {
    const result = await run(settling);
    declined = isDecline(result);
    return result;
  } finally {
    if (!settledWithDecision) await settle(deps, id, declined);
  }
}

/**
 * A 3-D Secure authentication ended, in the transaction that records its end: the attempt that waited on it is kept as
 * a decline (failed, cancelled, timed out, or declined once completed) or deleted (approved).
 */
export async function settleAuthenticationAttempt(db: Queryable, authenticationId: string, declined: boolean): Promise<void> {
  await settleAttemptOf(db, authenticationId, declined);
}

/** The authentication id a 202 `requires_action` answer's URL ends with. */
function authenticationIdOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { status?: unknown; action?: { url?: unknown } };
    if (parsed.status !== 'requires_action' || typeof parsed.action?.url !== 'string') return null;
    return /\/authentication\/([A-Za-z0-9_]+)$/.exec(parsed.action.url)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** A mutation's answer that is a decline the processor just gave (402: card_declined, insufficient_funds), not a replay of one. */
export function isFreshDecline(answer: AttemptAnswer): boolean {
  return answer.status === 402 && !answer.replayed;
}

async function reserveAttempt(deps: CardTestingDeps, attempt: CardAttempt): Promise<string> {
  const now = deps.clock.now();
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  const perAddress = deps.env.DECLINES_PER_ADDRESS_PER_HOUR;
  return deps.db.transaction(async (tx) => {
    // Always the subject's window first, then the address's: two attempts never wait on each other the other way round.
    // The claims are one statement and the counting another: a statement reads the rows as they were when it started,
    // so the count starts only once both windows are held and sees every attempt committed under them.
    await lockAttemptsOf(tx, attempt.subject, attempt.clientAddress, now);
    const reserved = await insertAttemptUnlessFull(tx, {
      subject: { key: attempt.subject, since: ago(SUBJECT_WINDOW_S), limit: DECLINES_PER_SUBJECT },
      address: { key: attempt.clientAddress, since: ago(ADDRESS_WINDOW_S), limit: perAddress },
      pruneBefore: ago(Math.max(SUBJECT_WINDOW_S, ADDRESS_WINDOW_S)),
      attemptedAt: now,
    });
    if (reserved.id !== null) return reserved.id;
    // A full window is free again once the oldest of its newest `limit` attempts leaves it.
    const freeAt = Math.max(
      reserved.subject.count >= DECLINES_PER_SUBJECT && reserved.subject.oldestMs !== null ? reserved.subject.oldestMs + SUBJECT_WINDOW_S * 1000 : 0,
      reserved.address.count >= perAddress && reserved.address.oldestMs !== null ? reserved.address.oldestMs + ADDRESS_WINDOW_S * 1000 : 0,
    );
    throw tooManyDeclines(Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)));
  });
}

/** The attempt kept as declined, or deleted (it does not count), on `db`. */
async function settleIn(db: Queryable, id: string, declined: boolean): Promise<void> {
  if (declined) await markAttemptDeclined(db, id);
  else await deleteAttempt(db, id);
}

async function settle(deps: CardTestingDeps, id: string, declined: boolean): Promise<void> {
  try {
    await settleIn(deps.db, id, declined);
  } catch (error) {
    // The attempt's answer stands; the row stays pending and counts as a decline until it leaves the windows.
    deps.logger.warn({ err: error, code: 'card_attempt_unsettled' }, 'card attempt not settled; it counts as a decline until its window ends');
  }
}

function tooManyDeclines(retryAfterS: number): ApiError {
  const minutes = Math.ceil(retryAfterS / 60);
  return new ApiError(
    'too_many_declines',
    `Too many declined payment attempts: no more are taken for ${minutes} minute${minutes === 1 ? '' : 's'} (Retry-After gives the seconds).`,
    { headers: { 'Retry-After': String(retryAfterS) } },
  );
}
