/**
 * Production: Apple Pay and Google Pay through the browser (the Payment Request API, and `ApplePaySession` where
 * Safari has it), never a third-party script. `canPayInBrowser` asks the browser whether the wallet can pay;
 * `showBrowserWallet` opens the browser's sheet and must be called inside the click's user activation (browsers refuse
 * `show()` without one), which is why nothing is awaited between the click and it.
 */
import type { PartyInformation, WalletAvailability } from '@svc/protocol';
import { centsToMajor } from '@svc/protocol/light';
import { partyFromPaymentAddress } from './party';
import type { DeviceWallet } from './wallets';

/** The Payment Request API's payment method identifiers of the two device wallets. */
export const PAYMENT_METHOD_IDS: Record<DeviceWallet, string> = { applepay: 'https://apple.com/apple-pay', googlepay: 'https://google.com/pay' };

interface ApplePaySessionStatic {
  canMakePayments(): boolean;
}

export interface BrowserWalletRequest {
  method: DeviceWallet;
  amountCents: number;
  currency: string;
  /** Shown in the wallet's sheet beside the amount. */
  label: string;
}

function paymentRequest(request: BrowserWalletRequest, Request: typeof PaymentRequest = PaymentRequest): PaymentRequest {
  const value = centsToMajor(request.amountCents).toFixed(2);
  const amount = { currency: request.currency, value };
  return new Request(
    [{ supportedMethods: PAYMENT_METHOD_IDS[request.method] }],
    {
      total: { label: request.label, amount },
      shippingOptions: [{ id: 'standard', label: 'Shipping', amount: { currency: request.currency, value: '0.00' }, selected: true }],
    },
    { requestPayerName: true, requestPayerEmail: true, requestShipping: true },
  );
}

const isNotAllowed = (error: unknown): boolean => error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'SecurityError');

/** Whether the browser offers the wallet here; `reason` says why not. Never throws. */
export async function canPayInBrowser(request: BrowserWalletRequest, scope: typeof globalThis = globalThis): Promise<WalletAvailability> {
  try {
    const applePay = (scope as { ApplePaySession?: ApplePaySessionStatic }).ApplePaySession;
    if (request.method === 'applepay' && applePay && !applePay.canMakePayments()) return { canPay: false, reason: 'no_wallet_setup' };
    if (typeof scope.PaymentRequest !== 'function') return { canPay: false, reason: 'browser_unsupported' };
    const can = await paymentRequest(request, scope.PaymentRequest).canMakePayment();
    return can ? { canPay: true } : { canPay: false, reason: 'no_wallet_setup' };
  } catch (error) {
    // A frame without the `payment` permission, or too many canMakePayment() calls: the page may not use the wallet.
    if (isNotAllowed(error)) return { canPay: false, reason: 'not_allowed' };
    return { canPay: false, reason: 'browser_unsupported' };
  }
}

export type BrowserWalletOutcome =
  | { status: 'approved'; billingInformation: PartyInformation; shippingInformation: PartyInformation; complete: (ok: boolean) => Promise<void> }
  | { status: 'cancelled' }
  | { status: 'refused'; message: string };

/**
 * Opens the browser's wallet sheet at once (call it from the click handler, before any await). Resolves when the
 * consumer approved (then `complete` must be called with the payment's outcome), cancelled, or the browser refused.
 */
export function showBrowserWallet(request: BrowserWalletRequest): Promise<BrowserWalletOutcome> {
  let shown: Promise<PaymentResponse>;
  try {
    shown = paymentRequest(request).show();
  } catch (error) {
    return Promise.resolve({ status: 'refused', message: error instanceof Error ? error.message : String(error) });
  }
  return shown.then(
    (response): BrowserWalletOutcome => {
      const payer = { name: response.payerName, email: response.payerEmail };
      const shipping = partyFromPaymentAddress(response.shippingAddress, payer);
      return {
        status: 'approved',
        // The Payment Request API returns one address (shipping); the wallet's billing address stays with the wallet.
        billingInformation: partyFromPaymentAddress(null, payer),
        shippingInformation: shipping,
        complete: (ok) => response.complete(ok ? 'success' : 'fail'),
      };
    },
    (error: unknown): BrowserWalletOutcome =>
      error instanceof DOMException && error.name === 'AbortError'
        ? { status: 'cancelled' }
        : { status: 'refused', message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) },
  );
}
