import { fillPath, returnFromAuthenticationPath, type AuthenticationReturnQuery } from '@svc/protocol';

/**
 * What the bank's return to the service carried (`GET /authentication-returns/{requestKey}`'s query): a processor
 * that needs it to ask for its decision reads it (Adyen's `redirectResult`); one that asks by its payment's id
 * (Stripe) does not. Absent when the completion comes another way (a processor's webhook, the sandbox's bank page).
 */
export type AuthenticationReturn = AuthenticationReturnQuery;

/**
 * Where the consumer's bank sends the consumer back after a 3-D Secure step on a processor's own page
 * (docs/integrating.md#3-d-secure): a URL of the service's origin given to the processor with the payment (Stripe's
 * `return_url`, Adyen's `returnUrl`). It names the payment by its processor request key, the one thing both the
 * connector (when it pays) and the service (when the consumer comes back) know.
 */
export function authenticationReturnUrl(publicBaseUrl: string, requestKey: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}${fillPath(returnFromAuthenticationPath, { requestKey })}`;
}
