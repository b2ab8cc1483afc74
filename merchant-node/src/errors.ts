import type { ApiErrorCode, ProblemFieldError } from './wire';

/** A `code` of the service, or `http_error` for an answer that was not the service's problem+json (a proxy's page, say). */
export type SvcErrorCode = ApiErrorCode | 'http_error';

interface ProblemFields {
  status: number;
  code: SvcErrorCode;
  title: string | null;
  detail: string | null;
  errors: ProblemFieldError[];
  requestId: string | null;
  retryAfterS: number | null;
}

/**
 * A refusal of the service (any non-2xx answer), with the problem details' fields. Switch on `code`: it is stable;
 * `detail` says what to do about it, for people. Quote `requestId` when asking for help.
 */
export class SvcApiError<C extends SvcErrorCode = SvcErrorCode> extends Error {
  readonly status: number;
  readonly code: C;
  readonly title: string | null;
  readonly detail: string | null;
  /** For `validation_failed`: each refused field, by its dotted path. */
  readonly errors: ProblemFieldError[];
  readonly requestId: string | null;
  /** The `Retry-After` header in seconds (429 and 503), else null. */
  readonly retryAfterS: number | null;

  constructor(fields: ProblemFields & { code: C }) {
    super(`${fields.code}: ${fields.detail ?? fields.title ?? `HTTP ${fields.status}`}`);
    this.name = 'SvcApiError';
    this.status = fields.status;
    this.code = fields.code;
    this.title = fields.title;
    this.detail = fields.detail;
    this.errors = fields.errors;
    this.requestId = fields.requestId;
    this.retryAfterS = fields.retryAfterS;
  }

  /** Whether `error` is a refusal of the service, with this `code` when one is given: `if (SvcApiError.is(e, 'not_found'))`. */
  static is<C extends SvcErrorCode>(error: unknown, code?: C): error is SvcApiError<C> {
    return error instanceof SvcApiError && (code === undefined || error.code === code);
  }
}

/** Seconds of a `Retry-After` header (delta-seconds only, as the service sends it), else null. */
export function retryAfterSeconds(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}

/** Reads a non-2xx answer, leniently: whatever is not problem+json leaves the fields null and the code `http_error`. */
export function errorFromAnswer(status: number, headers: Headers, text: string): SvcApiError {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's HTML page): the status alone tells.
  }
  const text_ = (value: unknown) => (typeof value === 'string' ? value : null);
  const errors = Array.isArray(body.errors)
    ? body.errors.flatMap((entry: unknown) => {
        const { path, message } = (entry ?? {}) as Record<string, unknown>;
        return typeof path === 'string' && typeof message === 'string' ? [{ path, message }] : [];
      })
    : [];
  return new SvcApiError({
    status,
    code: typeof body.code === 'string' ? (body.code as ApiErrorCode) : 'http_error',
    title: text_(body.title),
    detail: text_(body.detail) ?? (typeof body.code === 'string' ? null : text.slice(0, 200) || null),
    errors,
    requestId: text_(body.requestId) ?? headers.get('x-request-id'),
    retryAfterS: retryAfterSeconds(headers.get('retry-after')),
  });
}
