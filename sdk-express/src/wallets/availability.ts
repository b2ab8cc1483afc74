/**
 * Which wallet buttons can pay (`onReady`'s `{ paypal, applepay, googlepay }`). The method must be offered (`offered`:
 * the merchant's choice, and once the session answered, what the session offers too); in sandbox that is all (the sheet is the component's own, no third-party script); in production a device
 * wallet must also be offered by the browser, and PayPal, which has no browser API, is not offered.
 */
import type { ExpressReadyDetail, ExpressUnavailableReason, SdkMode, WalletAvailability, WalletMethod } from '@svc/protocol';
import { canPayInBrowser } from './browser-wallets';
import { isDeviceWallet, WALLETS } from './wallets';

export interface AvailabilityQuery {
  /** The wallets offered: the merchant's (`props.wallets`), and once it answered, the session's among them. */
  offered: readonly WalletMethod[];
  mode: SdkMode;
  amountCents: number;
  currency: string;
  label: string;
}

async function availabilityOf(method: WalletMethod, query: AvailabilityQuery, scope: typeof globalThis): Promise<WalletAvailability> {
  if (!query.offered.includes(method)) return { canPay: false, reason: 'method_not_offered' };
  if (query.mode === 'sandbox') return { canPay: true };
  if (!isDeviceWallet(method)) return { canPay: false, reason: 'method_not_offered' };
  return canPayInBrowser({ method, amountCents: query.amountCents, currency: query.currency, label: query.label }, scope);
}

export async function walletAvailability(query: AvailabilityQuery, scope: typeof globalThis = globalThis): Promise<ExpressReadyDetail> {
  const [paypal, applepay, googlepay] = await Promise.all(WALLETS.map((method) => availabilityOf(method, query, scope)));
  return { paypal: paypal!, applepay: applepay!, googlepay: googlepay! };
}

/** Every wallet unable to pay for one reason (the session failed, the amount is invalid, the props are wrong). */
export const noWalletCanPay = (reason: ExpressUnavailableReason): ExpressReadyDetail => ({
  paypal: { canPay: false, reason },
  applepay: { canPay: false, reason },
  googlepay: { canPay: false, reason },
});
