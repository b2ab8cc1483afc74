/**
 * Which device wallets the browser offers here, for a production widget: Apple Pay only where `ApplePaySession` exists
 * and says it can pay, Google Pay only where the Payment Request API says it can pay with it. The same rule as
 * Express's buttons (sdk-express/src/wallets/browser-wallets.ts). Never throws: a browser that refuses to answer
 * offers nothing.
 */
import type { WalletMethod } from '@svc/protocol';

/** The Payment Request API's payment method identifiers of the two device wallets. */
export const DEVICE_WALLET_IDS = { applepay: 'https://apple.com/apple-pay', googlepay: 'https://google.com/pay' } as const;
export type DeviceWallet = keyof typeof DEVICE_WALLET_IDS;

interface ApplePaySessionStatic {
  canMakePayments(): boolean;
}

export async function deviceWalletsOffered(scope: typeof globalThis = globalThis): Promise<Set<WalletMethod>> {
  const offered = new Set<WalletMethod>();
  try {
    if ((scope as { ApplePaySession?: ApplePaySessionStatic }).ApplePaySession?.canMakePayments()) offered.add('applepay');
  } catch {
    // Apple Pay refused to answer (an insecure page, a frame): not offered.
  }
  try {
    const request = new scope.PaymentRequest([{ supportedMethods: DEVICE_WALLET_IDS.googlepay }], {
      total: { label: 'Total', amount: { currency: 'USD', value: '0.00' } },
    });
    if (await request.canMakePayment()) offered.add('googlepay');
  } catch {
    // No Payment Request API, or the page may not use it: not offered.
  }
  return offered;
}
