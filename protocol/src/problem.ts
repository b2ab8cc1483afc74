import { z } from 'zod';
import { ApiErrorCodeSchema, type ApiErrorCode, API_ERRORS } from './error-codes';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
/** `type` URIs are relative to the service's own documentation. */
export const PROBLEM_TYPE_BASE = '/docs/errors#';

export const ProblemFieldErrorSchema = z.object({
  path: z.string().describe('Dotted path of the field, e.g. "products.0.quantity"; empty for the whole body'),
  message: z.string(),
});

/** RFC 9457 problem details, as every error of the service is answered. */
export const ProblemDetailsSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: ApiErrorCodeSchema,
  errors: z.array(ProblemFieldErrorSchema).optional(),
  requestId: z.string(),
});
export type ProblemDetails = z.infer<typeof ProblemDetailsSchema>;
export type ProblemFieldError = z.infer<typeof ProblemFieldErrorSchema>;

export function problemType(code: ApiErrorCode): string {
  return `${PROBLEM_TYPE_BASE}${code}`;
}

export function problemFor(code: ApiErrorCode, detail: string, requestId: string, errors?: ProblemFieldError[]): ProblemDetails {
  const { status, title } = API_ERRORS[code];
  return { type: problemType(code), title, status, detail, code, ...(errors ? { errors } : {}), requestId };
}
