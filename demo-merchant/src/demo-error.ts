import { ServiceApiError } from '@svc/protocol';
import type { Response } from 'express';
import { z } from 'zod';

/** A refusal of the demo shop itself (not of the payment service), with a stable code the pages show. */
export class DemoError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = 'not_ready',
  ) {
    super(message);
  }
}

/** What the pages get for any failure: `{ code, message }`, the service's own problem code and detail when it refused. */
export interface Refusal {
  code: string;
  message: string;
}

export function refusalOf(error: unknown): { status: number; refusal: Refusal } {
  if (error instanceof ServiceApiError) {
    return { status: error.status, refusal: { code: error.code, message: error.problem?.detail ?? error.message } };
  }
  if (error instanceof z.ZodError) {
    return { status: 400, refusal: { code: 'validation_failed', message: error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') } };
  }
  if (error instanceof DemoError) return { status: error.status, refusal: { code: error.code, message: error.message } };
  if (error instanceof TypeError && error.message === 'fetch failed') {
    return { status: 502, refusal: { code: 'service_unreachable', message: 'The shop could not reach the payment service.' } };
  }
  return { status: 500, refusal: { code: 'internal_error', message: 'The demo backend failed.' } };
}

export function sendError(res: Response, error: unknown): void {
  const { status, refusal } = refusalOf(error);
  res.status(status).json(refusal);
}
