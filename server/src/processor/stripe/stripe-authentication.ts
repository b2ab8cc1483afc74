import type Stripe from 'stripe';
import type { ThreeDSecure } from '@svc/protocol';

/**
 * The bank's page Stripe names for a PaymentIntent in `requires_action`: `next_action.redirect_to_url.url` (Stripe's
 * answer to a confirmation that carried a `return_url`), else the page of a `use_stripe_sdk` redirect
 * (`three_d_secure_redirect`'s `stripe_js`) when it is one; https pages only. Null when Stripe names none (an action only Stripe.js
 * can take, or an emulation that simulates the bank without a page).
 */
export function bankPageOf(intent: Stripe.PaymentIntent): string | null {
  const action = intent.next_action;
  if (!action) return null;
  const redirect = action.type === 'redirect_to_url' ? action.redirect_to_url?.url : null;
  if (isSecurePage(redirect)) return redirect;
  const sdk = action.use_stripe_sdk as { type?: unknown; stripe_js?: unknown } | undefined;
  if (sdk?.type === 'three_d_secure_redirect' && typeof sdk.stripe_js === 'string' && isSecurePage(sdk.stripe_js)) return sdk.stripe_js;
  return null;
}

/**
 * How the 3-D Secure of a payment Stripe approved after the bank's step went, from its charge's
 * `payment_method_details.card.three_d_secure` where Stripe tells it. Where it does not (an emulation), what is known:
 * the consumer answered the bank (a challenge) and Stripe went on; the version is unknown, and no liability shift is
 * claimed that Stripe did not state.
 */
export function threeDSecureOf(charge: Stripe.Charge | string | null): ThreeDSecure {
  const told = typeof charge === 'object' && charge ? charge.payment_method_details?.card?.three_d_secure : null;
  const result = told?.result ?? null;
  return {
    authenticated: result === null ? true : result === 'authenticated',
    flow: told?.authentication_flow === 'frictionless' ? 'frictionless' : 'challenge',
    version: told?.version ?? 'unknown',
    eci: told?.electronic_commerce_indicator ?? null,
    liabilityShift: result === 'authenticated' || result === 'attempt_acknowledged',
  };
}

/** An https page: the consumer is sent nowhere else. */
function isSecurePage(url: string | null | undefined): url is string {
  return typeof url === 'string' && URL.canParse(url) && new URL(url).protocol === 'https:';
}
