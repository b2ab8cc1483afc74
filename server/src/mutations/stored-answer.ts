import { PROBLEM_CONTENT_TYPE, problemFor } from '@svc/protocol';
import { ApiError } from '../errors';

/** What a change answers when it succeeds: its body (made JSON once, when the answer is stored) and its status (200 unless said). */
export interface Success {
  status?: number;
  body: unknown;
}

/** What a change or a processor operation comes to: a success, or a refusal (an `ApiError`). Services return these. */
export type Outcome = Success | ApiError;

/**
 * The answer an idempotent request keeps: the status and the exact body text, so a replay is byte-identical. Kept
 * under the request's Idempotency-Key and, for an answer that waited on the processor, with its processor request;
 * its content type follows from its status (`contentTypeOf`). The one name for it.
 */
export interface StoredAnswer {
  status: number;
  body: string;
}

/**
 * An outcome as the answer kept for it: a success's body as JSON, a refusal as problem+json. Rendered once, where the
 * outcome is recorded (by the HTTP request's mutation, or by whoever records a processor's answer, the worker
 * included, which has no HTTP request to answer): a replay sends what was stored, byte for byte.
 */
export function storedAnswerOf(outcome: Outcome, requestId: string): StoredAnswer {
  if (outcome instanceof ApiError) return problemAnswer(outcome, requestId);
  return { status: outcome.status ?? 200, body: JSON.stringify(outcome.body) };
}

/** An ApiError as its problem+json answer: the one place the problem body is built (http/problem.ts sends it). */
export function problemAnswer(error: ApiError, requestId: string): StoredAnswer {
  return { status: error.status, body: JSON.stringify(problemFor(error.code, error.detail, requestId, error.options.errors)) };
}

/** A stored answer's content type: a refusal's is problem+json. */
export function contentTypeOf(answer: StoredAnswer): string {
  return answer.status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json';
}
