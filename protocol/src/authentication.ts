import { z } from 'zod';
import { THREE_DS_FLOWS } from './constants';

/**
 * The 3-D Secure of an approved card payment (the confirmation's `threeDSecure`, docs/integrating.md#3-d-secure); the
 * confirmation carries null when none took place.
 */
export const ThreeDSecureSchema = z.object({
  authenticated: z.boolean().describe("Whether the card's issuer authenticated the card holder"),
  flow: z.enum(THREE_DS_FLOWS).describe('frictionless: the issuer did not ask the consumer; challenge: the consumer answered the bank'),
  version: z.string().describe('The 3-D Secure protocol version, e.g. 2.2.0'),
  eci: z.string().nullable().describe('The Electronic Commerce Indicator the issuer gave, null when none'),
  liabilityShift: z.boolean().describe("Whether liability for fraud moved to the card's issuer"),
});
export type ThreeDSecure = z.infer<typeof ThreeDSecureSchema>;

/**
 * The 202 answer of a consumer's card payment (`POST /pay/{linkId}`, `POST /sdk/sessions/{sessionId}/payments`) when the
 * consumer's bank asks for authentication: the transaction is 15 `AwaitingAuthentication` and the consumer opens `url`,
 * a page of the service's origin (`/authentication/{authenticationId}`).
 */
export const RequiresActionSchema = z.object({
  status: z.literal('requires_action'),
  action: z.object({
    type: z.literal('three_d_secure'),
    url: z.url().describe("The bank's page, an absolute URL on the service's origin"),
  }),
  transactionNumber: z
    .string()
    .optional()
    .describe("The transaction waiting for the bank (15): a widget follows it on the session's websocket (`?session=`) until it leaves 15"),
});
export type RequiresAction = z.infer<typeof RequiresActionSchema>;

/** The longest field a bank's return carries that the service reads (an Adyen `redirectResult` runs to a few kilobytes). */
const RETURN_FIELD_MAX = 16_000;

/**
 * `GET /authentication-returns/{requestKey}`'s query: what the processor's page adds to the return URL when it sends
 * the consumer back. Stripe names its PaymentIntent (which the service then reads from Stripe); Adyen gives the
 * `redirectResult` it decides the payment from. Other parameters are ignored.
 */
export const AuthenticationReturnQuerySchema = z.object({
  redirectResult: z.string().max(RETURN_FIELD_MAX).optional().describe("Adyen's redirect result, sent on to Adyen's /payments/details"),
  payment_intent: z.string().max(255).optional().describe("Stripe's PaymentIntent (`pi_…`) the consumer authenticated"),
  payment_intent_client_secret: z.string().max(255).optional().describe("Stripe's client secret of that PaymentIntent (not used: the service asks Stripe)"),
});
export type AuthenticationReturnQuery = z.infer<typeof AuthenticationReturnQuerySchema>;

/** `POST /authentication/{authenticationId}`: the sandbox bank page's answer, "Complete authentication" or "Fail authentication". */
export const AUTHENTICATION_RESULTS = ['complete', 'fail'] as const;
export const AnswerAuthenticationRequestSchema = z.strictObject({ result: z.enum(AUTHENTICATION_RESULTS) });
export type AnswerAuthenticationRequest = z.infer<typeof AnswerAuthenticationRequestSchema>;

/**
 * What the bank page learns once the authentication ended: `authenticated` or `failed`, and where a top-level page
 * goes back to (the link's payment page; null for a widget's session, whose dialog the widget closes).
 */
export const AuthenticationOutcomeSchema = z.object({
  outcome: z.enum(['authenticated', 'failed']),
  returnUrl: z.string().nullable(),
});
export type AuthenticationOutcome = z.infer<typeof AuthenticationOutcomeSchema>;
