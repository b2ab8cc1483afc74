/** Mounting <svc-ecom-sdk-express> against the mocked /sdk API, and finding its buttons and sheet as a user would. */
import { sendKeys } from '@web/test-runner-commands';
import type { ExpressPayData, ExpressReadyDetail, SdkError, WalletMethod } from '@svc/protocol';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import type { SvcEcomSdkExpress } from '../src/components/express-checkout/express-checkout';
import type { ExpressProps } from '../src/components/express-checkout/express-props';
import { defineExpress } from '../src/define';

defineExpress();

export interface Seen {
  ready: ExpressReadyDetail[];
  show: { method: WalletMethod }[];
  pay: ExpressPayData[];
  error: SdkError[];
}

/** Props with handlers that record what they receive. */
export function recordingProps(overrides: Partial<ExpressProps> = {}): { props: ExpressProps; seen: Seen } {
  const seen: Seen = { ready: [], show: [], pay: [], error: [] };
  const props: ExpressProps = {
    clientId: 'ck_test',
    amount: '10.50',
    currency: 'USD',
    mode: 'sandbox',
    onReady: (detail) => seen.ready.push(detail),
    onShow: (detail) => seen.show.push(detail),
    onPay: (detail) => seen.pay.push(detail),
    onError: (detail) => seen.error.push(detail),
    ...overrides,
  };
  return { props, seen };
}

export function mount(props: unknown): SvcEcomSdkExpress {
  const element = document.createElement('svc-ecom-sdk-express');
  element.apiBase = location.origin;
  element.props = props as ExpressProps;
  document.body.append(element);
  return element;
}

/** Mounts with recording handlers and waits for onReady. */
export async function mountReady(overrides: Partial<ExpressProps> = {}): Promise<{ element: SvcEcomSdkExpress; seen: Seen }> {
  const { props, seen } = recordingProps(overrides);
  const element = mount(props);
  await waitFor(() => seen.ready.length === 1, 'onReady');
  await element.updateComplete;
  return { element, seen };
}

export const NAMES: Record<WalletMethod, string> = { paypal: 'PayPal', applepay: 'Apple Pay', googlepay: 'Google Pay' };

export const buttons = (element: SvcEcomSdkExpress) => [...element.shadowRoot!.querySelectorAll<HTMLButtonElement>('button.payment-btn')];
export const button = (element: SvcEcomSdkExpress, method: WalletMethod) => element.shadowRoot!.querySelector<HTMLButtonElement>(`button[part="${method}"]`)!;
export const dialog = (element: SvcEcomSdkExpress) => element.shadowRoot!.querySelector('dialog')!;
export const sheetButton = (element: SvcEcomSdkExpress, name: 'Pay' | 'Cancel') =>
  [...dialog(element).querySelectorAll('button')].find((candidate) => candidate.textContent?.trim() === name)!;

/** Presses a wallet button as a person does (a real key press, so the browser grants user activation). */
export async function press(element: SvcEcomSdkExpress, method: WalletMethod): Promise<void> {
  button(element, method).focus();
  await sendKeys({ press: 'Enter' });
}

export async function sheetOpen(element: SvcEcomSdkExpress): Promise<HTMLDialogElement> {
  return waitFor(() => (dialog(element)?.open ? dialog(element) : null), 'the wallet sheet');
}

export { waitFor };
