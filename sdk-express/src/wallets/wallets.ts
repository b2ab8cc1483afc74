/** The three wallets of Express, in the order their buttons show, with the names people know them by. */
import type { WalletMethod } from '@svc/protocol';
import { WALLET_METHODS } from '@svc/protocol/light';

export const WALLETS: readonly WalletMethod[] = WALLET_METHODS;

export const WALLET_NAMES: Record<WalletMethod, string> = { paypal: 'PayPal', applepay: 'Apple Pay', googlepay: 'Google Pay' };

/** Device wallets are offered by the browser in production; PayPal is not. */
export type DeviceWallet = Exclude<WalletMethod, 'paypal'>;
export const isDeviceWallet = (method: WalletMethod): method is DeviceWallet => method !== 'paypal';
