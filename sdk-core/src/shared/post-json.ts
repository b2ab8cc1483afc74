/**
 * One JSON POST to the payment service, as every browser surface sends it (the merchant page's session and wallet
 * calls, the card frame's card payment, the hosted page's payment): no cookies, a 30 s limit, a refusal turned into an
 * SDK error from its problem+json, and the answer checked with a protocol validator before anyone uses it.
 */
import type { SdkError } from '@svc/protocol';
import { parseWith, readProblem, type ProblemInfo, type Validator } from '@svc/protocol/light';
import { networkError } from './sdk-errors';

/** A failure carries the problem's `errors[].path`s (e.g. `card.number`), empty when there was no problem body. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: SdkError; paths: string[] };

export interface PostJsonOptions<T> {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** More request headers (the hosted page's `Idempotency-Key`). */
  headers?: Record<string, string> | undefined;
  /** The caller gives up (the widget left the page): the request is aborted and the promise rejects. */
  signal?: AbortSignal | undefined;
  /** What the call is, for messages: "The card payment". */
  what: string;
  validator: Validator<T>;
  /** The SDK error for a refusal. */
  onProblem: (problem: ProblemInfo) => SdkError;
}

export const REQUEST_TIMEOUT_MS = 30_000;

export async function postJson<T>(url: string, body: unknown, options: PostJsonOptions<T>): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...options.headers, 'content-type': 'application/json' };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const deadline = withTimeout(options.signal, REQUEST_TIMEOUT_MS);
  let json: unknown;
  try {
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'omit', signal: deadline.signal });
    } catch (error) {
      if (options.signal?.aborted) throw error; // the caller gave up (element removed): not an error to report
      return { ok: false, error: networkError(options.what), paths: [] };
    }
    if (!response.ok) {
      const problem = await readProblem(response);
      return { ok: false, error: options.onProblem(problem), paths: problem.paths };
    }
    try {
      json = await response.json();
    } catch {
      json = undefined; // reported below as an unexpected answer
    }
  } finally {
    deadline.done();
  }
  const parsed = parseWith(options.validator, json);
  if (!parsed.ok) {
    return {
      ok: false,
      error: {
        code: 'internal_error',
        message: `${options.what}: the payment service answered unexpectedly (${parsed.path || 'body'} ${parsed.message}). Check that the SDK and the service versions match.`,
      },
      paths: [],
    };
  }
  return { ok: true, value: parsed.value };
}

/** The caller's signal, plus a time limit (AbortSignal.any is too recent for the browsers merchants support). */
function withTimeout(signal: AbortSignal | undefined, ms: number): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new DOMException('The request took too long', 'TimeoutError')), ms);
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
