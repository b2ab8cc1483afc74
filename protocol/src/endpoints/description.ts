import type { z } from 'zod';
import type { ApiErrorCode } from '../error-codes';

/**
 * An answer a page gives a person instead of a problem: a redirect to another page (its `Location` says where; no
 * body), or an HTML page (the 404 page of an unknown link). A status answered so is never also a problem's.
 */
export type PageAnswer = { status: 303; description: string; redirect: true } | { status: 404; description: string; contentType: 'text/html' };

export type EndpointAuth = 'merchant' | 'merchant_key' | 'device' | 'client' | 'session' | 'none';

/**
 * Every HTTP endpoint of the service, described once: the OpenAPI document and the /docs page are generated
 * from this table, and the server's routes parse their bodies with the same schemas.
 */
export interface EndpointDescription {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path template, e.g. /transactions/{transactionNumber} */
  path: string;
  tag: 'Transactions' | 'Authorizations' | 'Consumer' | 'Merchant' | 'Sandbox' | 'Service';
  summary: string;
  description: string;
  /**
   * Who may call: merchant (API or branch key), merchant_key (the merchant API key only), device, or nobody in
   * particular (the id in the path is the secret).
   */
  auth: readonly EndpointAuth[];
  request?: z.ZodType;
  /**
   * The query string's parameters, for a GET: an object schema over their text values (a repeated parameter arrives
   * as a list, `name[key]=value` as `name: { key: value }`). The server parses the query with it (400
   * `validation_failed` naming the parameter) and the OpenAPI document lists each field as a query parameter.
   */
  query?: z.ZodType;
  /** `contentType` for the pages and images the service serves (their body is not JSON); JSON otherwise. */
  response: { status: number; description: string; schema: z.ZodType; contentType?: 'text/html' | 'image/svg+xml' };
  /**
   * Other successful answers of the endpoint, each with its own body: a consumer's card payment answers 202
   * `requires_action` when the bank asks for 3-D Secure.
   */
  otherResponses?: readonly { status: number; description: string; schema: z.ZodType }[];
  /** The answers of a page besides its success and its problems: a redirect, or the page a person reads for a bad link. */
  pageAnswers?: readonly PageAnswer[];
  /**
   * The refusals of the endpoint's own rules. What the rest of its description implies (a body, who may call, an
   * Idempotency-Key, parameters to check) and what every endpoint may meet are never written here: `allErrors`
   * (implied-errors.ts) adds them, and ENDPOINTS carries the whole list.
   */
  errors: readonly ApiErrorCode[];
  /** Accepts Idempotency-Key (every mutating POST). */
  idempotent: boolean;
  sandboxOnly?: boolean;
}

/** What a card payment the consumer makes may be refused with: the processor's declines, its failure, a capability it lacks. */
export const CARD_PAYMENT_ERRORS = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'authentication_failed',
  'processor_failure',
  'processor_unsupported',
] as const satisfies readonly ApiErrorCode[];
