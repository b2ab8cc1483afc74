import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { ApiErrorCode } from '@svc/protocol';
import type { Clock } from '../clock';
import type { Database, Tx } from '../db/client';
import { ApiError, RefusalAfterChange, ValidationError } from '../errors';
import { claimKey, findIdempotencyKey, isKeyHeldElsewhere, storeResponse } from '../mutations/idempotency-keys.queries';
import type { AnswerAfterCommit, Change, MutationContext } from '../mutations/mutation';
import { contentTypeOf, problemAnswer, storedAnswerOf, type StoredAnswer } from '../mutations/stored-answer';
import { AnswerSeal } from './sealed-answer';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const MAX_KEY_LENGTH = 255;

/**
 * Refusals of the input itself, which are answered but not stored: the corrected request may take the same key. An
 * unusable card is one of them, since the fingerprint does not see the card (see fingerprint).
 */
const NOT_STORED: ReadonlySet<ApiErrorCode> = new Set<ApiErrorCode>(['validation_failed', 'invalid_card']);

/** A mutation's answer as it is sent: the stored answer, and whether it is a replay of one stored before. */
export interface SentAnswer extends StoredAnswer {
  replayed: boolean;
}

/** What a change answered: its answer now, or, when it waits on the processor, the answer it gives after the commit. */
type ChangeAnswer = { answer: StoredAnswer; afterCommit: null } | { answer: null; afterCommit: AnswerAfterCommit };

/** Runs the change; a `RefusalAfterChange` becomes its answer and what the change wrote stays (the caller commits). */
async function answerOfChange(tx: Tx, change: Change, context: MutationContext, afterCommit: (() => Promise<void>)[]): Promise<ChangeAnswer> {
  const queued: (() => Promise<void>)[] = [];
  try {
    const result = await change(tx, { ...context, afterCommit: (work) => queued.push(work) });
    afterCommit.push(...queued);
    if ('answer' in result) return { answer: null, afterCommit: result };
    return { answer: storedAnswerOf(result, context.requestId), afterCommit: null };
  } catch (error) {
    if (error instanceof RefusalAfterChange) {
      afterCommit.push(...queued);
      return { answer: problemAnswer(error.refusal, context.requestId), afterCommit: null };
    }
    throw error;
  }
}

export interface IdempotencyScope {
  merchantId: string;
  /**
   * Who is asking. A merchant credential's keys are the merchant's (docs/integrating.md#idempotency), but a stored answer replays only to
   * the credential that stored it: another key or branch of the merchant sending the same key gets 422
   * `idempotency_key_reused`, never the first caller's answer. A payment link, a commit link, a client ID (per
   * origin) or an SDK session has a key space of its own, so the public side can neither take nor read a merchant's
   * keys.
   */
  caller: { credentialId: string } | { space: string };
  key: string | undefined;
  /**
   * A secret of the caller the request itself carries (a client ID), for answers that hold a secret (an SDK
   * session's token): the answer is stored sealed under it and the key (see AnswerSeal), never in the clear.
   */
  sealWith?: string;
  request: Request;
  requestId: string;
}

/**
 * Runs a change as a mutation in one database transaction. With an Idempotency-Key (docs/integrating.md#idempotency) the stored response is
 * written in that same transaction: the same key and body within 24 h replay it; another body is 422
 * `idempotency_key_reused`; a request still running under the key makes the next one 409 `idempotency_key_in_use`
 * (the key's row is claimed first thing in the transaction, never waiting on another's claim: claimKey). The stored
 * answer is read before the key is claimed, so any number of concurrent replays of a finished request all get its
 * answer. Refusals (4xx) are stored and replayed too, except refusals of the input (NOT_STORED), which are not: the
 * change runs in a savepoint so a refusal leaves nothing behind but its answer. The fingerprint kept beside the
 * answer is taken without the card (see fingerprint), and both are deleted once they expire (forgetExpiredKeys).
 */
export async function runMutation(db: Database, clock: Clock, scope: IdempotencyScope, change: Change): Promise<SentAnswer> {
  const afterCommit: (() => Promise<void>)[] = [];
  const answered = await runInTransaction(db, clock, scope, change, afterCommit);
  for (const work of afterCommit) await work();
  if ('replayed' in answered) return answered;
  const answer = answered.afterCommit ? await answered.afterCommit.answer() : answered.answer;
  return { ...answer, replayed: false };
}

async function runInTransaction(
  db: Database,
  clock: Clock,
  scope: IdempotencyScope,
  change: Change,
  afterCommit: (() => Promise<void>)[],
): Promise<ChangeAnswer | SentAnswer> {
  const context = { idempotencyKey: null, idempotencyKeyTakenAt: null, requestId: scope.requestId, afterCommit: () => undefined };
  if (scope.key === undefined) return db.transaction((tx) => answerOfChange(tx, change, context, afterCommit));
  if (scope.key.length === 0 || scope.key.length > MAX_KEY_LENGTH) {
    throw new ValidationError([{ path: 'Idempotency-Key', message: `must be 1 to ${MAX_KEY_LENGTH} characters` }]);
  }
  const seal = scope.sealWith === undefined ? null : new AnswerSeal(scope.sealWith, scope.key);
  const ownKey = seal ? AnswerSeal.storedKey(scope.key) : scope.key;
  const key = 'space' in scope.caller ? `${scope.caller.space} ${ownKey}` : ownKey;
  const requestHash = fingerprint(scope.request, 'credentialId' in scope.caller ? scope.caller.credentialId : '');
  const running = db.transaction(async (tx) => {
    const now = clock.now();
    const find = () => storedAnswer(tx, scope.merchantId, key, requestHash, now, seal);
    // A finished request's answer is read before the key is claimed: replays never contend with each other.
    const stored = await find();
    if (stored) return stored;
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
    if (!(await claimKey(tx, scope.merchantId, key, { requestHash, createdAt: now, expiresAt }))) {
      // Taken by a request committed since the first read: its answer is the one to give, or it is still in flight.
      const storedSince = await find();
      if (storedSince) return storedSince;
      throw keyInUse();
    }
    let answered: ChangeAnswer;
    const queued: (() => Promise<void>)[] = [];
    try {
      answered = await tx.transaction((savepoint) =>
        answerOfChange(savepoint, change, { ...context, idempotencyKey: key, idempotencyKeyTakenAt: now }, queued),
      );
      afterCommit.push(...queued);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500 || NOT_STORED.has(error.code)) throw error;
      answered = { answer: problemAnswer(error, scope.requestId), afterCommit: null };
    }
    if (answered.afterCommit) {
      // In flight at the processor: the key is taken, with no answer yet; the outcome's recording fills it in.
      if (seal) throw new Error('an answer that waits on the processor cannot be sealed');
      await storeResponse(tx, scope.merchantId, key, { requestHash, responseStatus: null, responseBody: null, createdAt: now, expiresAt });
      return answered;
    }
    const responseBody = seal ? seal.seal(answered.answer.body) : answered.answer.body;
    await storeResponse(tx, scope.merchantId, key, { requestHash, responseStatus: answered.answer.status, responseBody, createdAt: now, expiresAt });
    return answered;
  });
  // Another request holds the key's claim, uncommitted: it is still running.
  return running.catch((error: unknown) => {
    throw isKeyHeldElsewhere(error) ? keyInUse() : error;
  });
}

function keyInUse(): ApiError {
  return new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry when it has finished to get its response.');
}

/** The answer stored under the key, while it lives, for the same request; 422 for another request. */
async function storedAnswer(tx: Tx, merchantId: string, key: string, requestHash: Buffer, now: Date, seal: AnswerSeal | null): Promise<SentAnswer | null> {
  const stored = await findIdempotencyKey(tx, merchantId, key);
  if (!stored || stored.expiresAt <= now) return null;
  // A fingerprint deleted because it was taken over a card (see the schema) matches any request under the key.
  if (stored.requestHash !== null && !stored.requestHash.equals(requestHash)) {
    throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key for a new request.');
  }
  // Its processor call is still in flight (its outcome, recorded by the request or the worker, fills in the answer).
  if (stored.responseStatus === null || stored.responseBody === null) throw keyInUse();
  const body = seal ? seal.open(stored.responseBody) : stored.responseBody;
  return { status: stored.responseStatus, body, replayed: true };
}

/**
 * The request's fingerprint, which tells a replay from another request under the same key: caller, method, path and
 * the body with keys sorted (the same request however its JSON was laid out), with the consumer's card and personal
 * details left out.
 *
 * Why they are left out: the fingerprint is kept for a day beside the key, and a hash of a body holding a card can
 * be searched. With the link (or session) and the last four digits the answer shows, what is left to guess of a card
 * is a few billion numbers that pass Luhn, an expiry and a CVC: an unsalted hash falls in seconds, and a keyed hash
 * only moves the secret somewhere else. So no function of the card is kept at all: each card field (at any depth) is
 * replaced by one constant before hashing, and the fingerprint is the same whatever card was sent. Billing and
 * shipping details are left out the same way: personal data, also guessable, that the service does not keep.
 *
 * What that means for a request under a key already used: the same body but another card counts as the same request
 * and gets the first answer, replayed (another card is never charged under it). A key names one attempt (the hosted
 * page and the terminal simulator send a new one with every attempt), so a second card is a new attempt with a new
 * key; telling the cards apart for a 422 would take exactly what must not be kept. A card refused before it
 * reached the processor (400 `invalid_card`) is not stored (see NOT_STORED), so the corrected card may take the same
 * key. Any other difference in the body is still another request: 422 `idempotency_key_reused`.
 */
function fingerprint(req: Request, caller: string): Buffer {
  return createHash('sha256')
    .update(`${caller}\n${req.method} ${req.path}\n`)
    .update(canonicalJson(req.body ?? {}))
    .digest();
}

/**
 * Fields whose value never enters a fingerprint: a card (`card` of the hosted page and the SDK payments, with its number,
 * expiry and CVC; `cardNumber` of a terminal tap) and the consumer's billing and shipping details.
 */
const LEFT_OUT = new Set(['card', 'cardNumber', 'billingAddress', 'billingInformation', 'shippingInformation']);
const LEFT_OUT_VALUE = '"(left out)"';

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${LEFT_OUT.has(k) ? LEFT_OUT_VALUE : canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The one place a mutation's answer becomes an HTTP response. */
export function sendMutation(res: Response, answer: SentAnswer): void {
  if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.status(answer.status).type(contentTypeOf(answer)).send(answer.body);
}
