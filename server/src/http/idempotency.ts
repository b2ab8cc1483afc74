import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { PROBLEM_CONTENT_TYPE } from '@svc/protocol';
import type { Clock } from '../clock';
import type { Database, Tx } from '../db/client';
import { ApiError, RefusalAfterChange, ValidationError } from '../errors';
import { findStoredResponse, storeResponse, tryAdvisoryXactLock } from './idempotency.queries';
import { renderProblem } from './problem';
import { AnswerSeal } from './sealed-answer';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const MAX_KEY_LENGTH = 255;

/** What a mutation answers: the status and the exact body text, so a replay is byte-identical. */
export interface MutationResponse {
  status: number;
  body: string;
  contentType: string;
  replayed: boolean;
}

/** What an effect returns on success. A refusal that must still commit what the effect wrote is thrown as a `RefusalAfterChange`. */
export interface MutationResult {
  status?: number;
  body: unknown;
}

/**
 * What an effect returns when its answer is the outcome of a processor call: the effect committed the intent (a
 * processor_requests row in flight), and `answer` calls the processor outside any transaction and records the outcome
 * in one of its own, which also fills in the answer under the Idempotency-Key.
 */
export interface ProcessorHandoff {
  answer: () => Promise<Omit<MutationResponse, 'replayed'>>;
}

/** What an effect may ask of the mutation around it. */
export interface MutationContext {
  /** The key the answer is stored under (scoped as in idempotency_keys), or null without an Idempotency-Key. */
  idempotencyKey: string | null;
  /** When this request took the key (its row's created_at): what tells it from the same key taken again after it expired. */
  idempotencyKeyTakenAt: Date | null;
  requestId: string;
  /** Work that must wait for the effect's writes to be committed (a release at the processor); dropped if they are not. */
  afterCommit(work: () => Promise<void>): void;
}

type Effect = (tx: Tx, context: MutationContext) => Promise<MutationResult | ProcessorHandoff>;
type Settled = { response: Omit<MutationResponse, 'replayed'>; handoff: null } | { response: null; handoff: ProcessorHandoff };

/** Runs the effect; a `RefusalAfterChange` becomes its answer and what the effect wrote stays (the caller commits). */
async function settle(tx: Tx, effect: Effect, context: MutationContext, afterCommit: (() => Promise<void>)[]): Promise<Settled> {
  const queued: (() => Promise<void>)[] = [];
  try {
    const result = await effect(tx, { ...context, afterCommit: (work) => queued.push(work) });
    afterCommit.push(...queued);
    if ('answer' in result) return { response: null, handoff: result };
    return { response: { status: result.status ?? 200, body: JSON.stringify(result.body), contentType: 'application/json' }, handoff: null };
  } catch (error) {
    if (error instanceof RefusalAfterChange) {
      afterCommit.push(...queued);
      return { response: problemResponse(error.refusal, context.requestId), handoff: null };
    }
    throw error;
  }
}

/** An effect's answer rendered as a stored answer is: a body, or a refusal as problem+json. */
export function answerOf(result: MutationResult | ApiError, requestId: string): Omit<MutationResponse, 'replayed'> {
  if (result instanceof ApiError) return problemResponse(result, requestId);
  return { status: result.status ?? 200, body: JSON.stringify(result.body), contentType: 'application/json' };
}

function problemResponse(error: ApiError, requestId: string): Omit<MutationResponse, 'replayed'> {
  const { status, body, contentType } = renderProblem(error, requestId);
  return { status, body, contentType };
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
 * Runs a mutation in one database transaction. With an Idempotency-Key (docs/integrating.md#idempotency) the stored response is
 * written in that same transaction: the same key and body within 24 h replay it; another body is 422
 * `idempotency_key_reused`; a request still running under the key makes the next one 409 `idempotency_key_in_use`
 * (an advisory lock tried, never waited on). The stored answer is read before the lock is tried, so any number of
 * concurrent replays of a finished request all get its answer. Refusals (4xx) are stored and replayed too, except
 * validation failures, which are not: the effect runs in a savepoint so a refusal leaves nothing behind but its answer.
 */
export async function runMutation(db: Database, clock: Clock, scope: IdempotencyScope, effect: Effect): Promise<MutationResponse> {
  const afterCommit: (() => Promise<void>)[] = [];
  const settled = await runInTransaction(db, clock, scope, effect, afterCommit);
  for (const work of afterCommit) await work();
  if ('replayed' in settled) return settled;
  const response = settled.handoff ? await settled.handoff.answer() : settled.response;
  return { ...response, replayed: false };
}

async function runInTransaction(
  db: Database,
  clock: Clock,
  scope: IdempotencyScope,
  effect: Effect,
  afterCommit: (() => Promise<void>)[],
): Promise<Settled | MutationResponse> {
  const context = { idempotencyKey: null, idempotencyKeyTakenAt: null, requestId: scope.requestId, afterCommit: () => undefined };
  if (scope.key === undefined) return db.transaction((tx) => settle(tx, effect, context, afterCommit));
  if (scope.key.length === 0 || scope.key.length > MAX_KEY_LENGTH) {
    throw new ValidationError([{ path: 'Idempotency-Key', message: `must be 1 to ${MAX_KEY_LENGTH} characters` }]);
  }
  const seal = scope.sealWith === undefined ? null : new AnswerSeal(scope.sealWith, scope.key);
  const ownKey = seal ? AnswerSeal.storedKey(scope.key) : scope.key;
  const key = 'space' in scope.caller ? `${scope.caller.space} ${ownKey}` : ownKey;
  const requestHash = hashRequest(scope.request, 'credentialId' in scope.caller ? scope.caller.credentialId : '');
  return db.transaction(async (tx) => {
    const now = clock.now();
    const find = () => storedAnswer(tx, scope.merchantId, key, requestHash, now, seal);
    // A finished request's answer is read before the lock is tried: replays never contend with each other.
    const stored = await find();
    if (stored) return stored;
    const locked = await tryAdvisoryXactLock(tx, lockKey(scope.merchantId, key));
    // Whoever holds the lock may be a request that finished since the first read (its answer is now visible) or a
    // replay that took the lock just after; either way a stored answer is the one to give. Read once more.
    const storedSince = await find();
    if (storedSince) return storedSince;
    if (!locked) throw keyInUse();
    let settled: Settled;
    const queued: (() => Promise<void>)[] = [];
    try {
      settled = await tx.transaction((savepoint) => settle(savepoint, effect, { ...context, idempotencyKey: key, idempotencyKeyTakenAt: now }, queued));
      afterCommit.push(...queued);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500 || error.code === 'validation_failed') throw error;
      settled = { response: problemResponse(error, scope.requestId), handoff: null };
    }
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
    if (settled.handoff) {
      // In flight at the processor: the key is taken, with no answer yet; the outcome's recording fills it in.
      if (seal) throw new Error('an answer that waits on the processor cannot be sealed');
      await storeResponse(tx, scope.merchantId, key, { requestHash, responseStatus: null, responseBody: null, createdAt: now, expiresAt });
      return settled;
    }
    const responseBody = seal ? seal.seal(settled.response.body) : settled.response.body;
    await storeResponse(tx, scope.merchantId, key, { requestHash, responseStatus: settled.response.status, responseBody, createdAt: now, expiresAt });
    return settled;
  });
}

function keyInUse(): ApiError {
  return new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry when it has finished to get its response.');
}

/** The answer stored under the key, while it lives, for the same request; 422 for another request. */
async function storedAnswer(
  tx: Tx,
  merchantId: string,
  key: string,
  requestHash: Buffer,
  now: Date,
  seal: AnswerSeal | null,
): Promise<MutationResponse | null> {
  const stored = await findStoredResponse(tx, merchantId, key);
  if (!stored || stored.expiresAt <= now) return null;
  if (!stored.requestHash.equals(requestHash)) {
    throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key for a new request.');
  }
  // Its processor call is still in flight (its outcome, recorded by the request or the worker, fills in the answer).
  if (stored.responseStatus === null || stored.responseBody === null) throw keyInUse();
  const contentType = stored.responseStatus >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json';
  const body = seal ? seal.open(stored.responseBody) : stored.responseBody;
  return { status: stored.responseStatus, body, contentType, replayed: true };
}

/** Caller, method, path and the body with keys sorted: the same request however its JSON was laid out. */
function hashRequest(req: Request, caller: string): Buffer {
  return createHash('sha256')
    .update(`${caller}\n${req.method} ${req.path}\n`)
    .update(canonicalJson(req.body ?? {}))
    .digest();
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A signed 64-bit advisory lock key from the merchant and the key. */
function lockKey(merchantId: string, key: string): string {
  return createHash('sha256').update(`${merchantId}\0${key}`).digest().readBigInt64BE(0).toString();
}

export function sendMutation(res: import('express').Response, response: MutationResponse): void {
  if (response.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.status(response.status).type(response.contentType).send(response.body);
}
