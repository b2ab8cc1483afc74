import { API_ERRORS, type ApiErrorCode, type ProblemFieldError } from '@svc/protocol';
import type { ZodError } from 'zod';

/**
 * The one error tree of the service. Everything a client should see is an ApiError with a stable code from
 * `protocol`; the problem+json middleware turns it into a response. Any other thrown value is a 500.
 */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiErrorCode,
    readonly detail: string,
    readonly options: { errors?: ProblemFieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(`${code}: ${detail}`);
    this.name = 'ApiError';
    this.status = API_ERRORS[code].status;
  }
}

export class ValidationError extends ApiError {
  constructor(errors: ProblemFieldError[], detail = describeFieldErrors(errors)) {
    super('validation_failed', detail, { errors });
    this.name = 'ValidationError';
  }

  static fromZod(error: ZodError, pathPrefix: string[] = []): ValidationError {
    return new ValidationError(
      error.issues.flatMap((issue) => {
        const path = [...pathPrefix, ...issue.path.map(String)];
        // One error per unknown field or parameter, at its own path, so the answer names it.
        if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: 'is not accepted here' }));
        return [{ path: path.join('.'), message: issue.message }];
      }),
    );
  }
}

export class NotFoundError extends ApiError {
  constructor(what = 'resource') {
    super('not_found', `No ${what} with that identifier exists for these credentials.`);
    this.name = 'NotFoundError';
  }
}

/**
 * The database cannot be reached or does not answer now: 503 with Retry-After; nothing of the request was kept, unless
 * `detail` says what was (a request already committed and in flight at the processor).
 */
export class DatabaseUnavailableError extends ApiError {
  constructor(
    detail = 'The database is unavailable right now; nothing of this request was kept. Retry after the seconds Retry-After gives (with the same Idempotency-Key).',
  ) {
    super('database_unavailable', detail, { headers: { 'Retry-After': '1' } });
    this.name = 'DatabaseUnavailableError';
  }
}

export class UnauthorizedError extends ApiError {
  constructor() {
    super('unauthorized', 'Send a valid API key as "Authorization: Bearer <key>" (or a device ID where the endpoint allows one).');
    this.name = 'UnauthorizedError';
  }
}

/**
 * A refusal that comes after a change which must stand: a declined card leaves the transaction Declined, an
 * expired commit window leaves it Expired. A mutation that throws it commits what it wrote and answers `refusal`;
 * any other error rolls the change back.
 */
export class RefusalAfterChange extends ApiError {
  constructor(readonly refusal: ApiError) {
    super(refusal.code, refusal.detail, refusal.options);
    this.name = 'RefusalAfterChange';
  }
}

function describeFieldErrors(errors: ProblemFieldError[]): string {
  const first = errors[0];
  if (!first) return 'The request is not valid.';
  const where = first.path ? `${first.path}: ` : '';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${where}${first.message}${more}`;
}
