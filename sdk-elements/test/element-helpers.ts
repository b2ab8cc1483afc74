/** Mounting <svc-ecom-sdk-elements> against the mocked API, and typing into its (same-origin) card frame. */
import type { SvcEcomSdkElements } from '../src/components/svc-ecom-sdk-elements/svc-ecom-sdk-elements';
import { defineElements } from '../src/define';
import { waitFor } from '@svc/sdk-core/testing/helpers';

defineElements();

export function mount(
  options: { clientId?: string; methodType?: string; apiBase?: string; debug?: boolean; maxInstallments?: number; parent?: HTMLElement } = {},
): SvcEcomSdkElements {
  const element = document.createElement('svc-ecom-sdk-elements');
  element.clientId = options.clientId ?? 'ck_test';
  element.mode = 'sandbox';
  element.apiBase = options.apiBase ?? location.origin;
  if (options.methodType) element.methodType = options.methodType;
  element.debug = options.debug ?? false;
  if (options.maxInstallments !== undefined) element.maxInstallments = options.maxInstallments;
  (options.parent ?? document.body).append(element);
  return element;
}

export const frameOf = (element: SvcEcomSdkElements) => element.shadowRoot!.querySelector('iframe')!;
export const part = (element: SvcEcomSdkElements, name: string) => element.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
export const radios = (element: SvcEcomSdkElements) => [...element.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=radio]')];

/** Ready: session loaded and the card frame's handshake done (its init is on its way). */
export async function ready(element: SvcEcomSdkElements): Promise<void> {
  await waitFor(() => element.state === 'ready', 'state ready');
  if (element.paymentMethod === 'card') await waitFor(() => frameOf(element)?.dataset['ready'] === 'true', 'frame handshake');
}

/**
 * Fills the same-origin card frame as a paste would (value + input event), which is quick; the keyboard and
 * cross-origin tests use real key presses (sendKeys) instead.
 */
export async function typeCard(element: SvcEcomSdkElements, card: { number: string; expiry?: string; cvc?: string }): Promise<void> {
  const frameWindow = frameOf(element).contentWindow as Window & typeof globalThis;
  const doc = frameWindow.document;
  const fill = (id: string, text: string) => {
    const input = doc.getElementById(id) as HTMLInputElement;
    input.focus();
    input.value = text;
    input.dispatchEvent(new frameWindow.InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: text }));
  };
  fill('number', card.number);
  fill('expiry', card.expiry ?? '1230');
  fill('cvc', card.cvc ?? '123');
  await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Collects the element's events of the given types, in order. */
export function record(element: EventTarget, types: string[]): { type: string; detail: unknown }[] {
  const seen: { type: string; detail: unknown }[] = [];
  for (const type of types) element.addEventListener(type, (event) => seen.push({ type, detail: (event as CustomEvent).detail }));
  return seen;
}
