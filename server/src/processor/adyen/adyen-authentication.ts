import type { Types } from '@adyen/api-library';
import type { ThreeDSecure } from '@svc/protocol';
import { cardBrand } from '../sandbox-processor';

/** The page a `RedirectShopper` action sends the shopper to: a GET redirect to an https page; null for any other action. */
export function bankPageOf(action: Types.checkout.PaymentResponse['action'] | undefined): string | null {
  if (!action || action.type !== 'redirect') return null;
  const { method, url } = action as Types.checkout.CheckoutRedirectAction;
  // A redirect to be posted (a form with PaReq and MD) cannot be sent as the service's 303.
  if ((method ?? 'GET').toUpperCase() !== 'GET' || typeof url !== 'string' || !URL.canParse(url)) return null;
  return new URL(url).protocol === 'https:' ? url : null;
}

/**
 * How the 3-D Secure of a payment Adyen authorised after the bank's step went, from the `additionalData` Adyen returns
 * where the account has it enabled (`threeDAuthenticated`, `liabilityShift`, `eci`, `threeDSVersion`). Where it tells
 * nothing, what is known: the shopper answered the bank (a challenge) and Adyen authorised; the version is unknown,
 * and no liability shift is claimed that Adyen did not state.
 */
export function adyenThreeDSecure(additionalData: Record<string, string> | undefined): ThreeDSecure {
  const data = additionalData ?? {};
  const authenticated = data['threeDAuthenticated'];
  return {
    authenticated: authenticated === undefined ? true : authenticated === 'true',
    flow: 'challenge',
    version: data['threeDSVersion'] || data['threeds2.threeDS2ResponseData.messageVersion'] || 'unknown',
    eci: data['eci'] || null,
    liabilityShift: data['liabilityShift'] === 'true',
  };
}

/** The card's name from Adyen's `additionalData` (`cardSummary`, `paymentMethod`), when the connector no longer holds it. */
export function cardFromAdditionalData(additionalData: Record<string, string> | undefined): { paymentMethodName: string; lastFourDigits: string | null } {
  const brands: Record<string, string> = { visa: 'Visa', mc: 'Mastercard', amex: 'American Express', discover: 'Discover' };
  const method = additionalData?.['paymentMethod'];
  return { paymentMethodName: (method && brands[method]) || cardBrand(''), lastFourDigits: additionalData?.['cardSummary'] || null };
}
