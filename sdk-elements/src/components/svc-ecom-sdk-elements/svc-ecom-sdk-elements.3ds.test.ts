/**
 * 3-D Secure and installments in Elements (docs/integrating.md#3-d-secure-and-installments-in-the-widgets), against the test server's fake
 * bank (sdk-core/src/testing/fake-bank.mjs): a challenge card's payment answers 202 requires_action, the widget shows the
 * bank's page in a modal dialog over itself, and the `pay` result follows the transaction once it leaves 15 (from the
 * card frame's websocket), or is `payment_cancelled` after Escape or Cancel (the card frame cancels the authentication
 * with its session token). The number of payments shows beside the card fields only when the session allows more than one.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import 'axe-core/axe.min.js';
import type * as Axe from 'axe-core';
import { calls, resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { spyOnListeners } from '@svc/sdk-core/testing/listener-spy';
import { EN } from '@svc/sdk-core/i18n';
import type { SdkErrorException } from '@svc/sdk-core/shared';
import { frameOf, mount, ready, typeCard } from '../../../test/element-helpers';
import type { SvcEcomSdkElements } from './svc-ecom-sdk-elements';

const axe = (window as unknown as { axe: typeof Axe }).axe;
const CHALLENGE = '4000000000003220';
const CHALLENGE_THEN_DECLINED = '4000008400001629';

const dialogOf = (element: SvcEcomSdkElements) => element.shadowRoot!.querySelector('dialog');
const bankPage = (element: SvcEcomSdkElements) => dialogOf(element)?.querySelector('iframe')?.contentDocument ?? null;
/** The fake bank page's button, once its page has loaded in the dialog. */
const bankButton = (element: SvcEcomSdkElements, name: string) =>
  [...(bankPage(element)?.querySelectorAll('button') ?? [])].find((button) => button.textContent === name) ?? null;

async function rejection(promise: Promise<unknown>): Promise<SdkErrorException> {
  try {
    await promise;
  } catch (error) {
    return error as SdkErrorException;
  }
  throw new Error('expected pay() to reject');
}

/** A challenge card's payment, with the dialog open and the bank's page loaded. */
async function challenged(element: SvcEcomSdkElements, number = CHALLENGE): Promise<{ pending: Promise<unknown> }> {
  await ready(element);
  await typeCard(element, { number });
  // The shopper clicks the merchant's pay button: focus goes back there when the dialog closes.
  document.querySelector<HTMLButtonElement>('#pay-now')!.focus();
  const pending = element.pay({ amount: 1500, currency: 'EUR' });
  pending.catch(() => undefined);
  await waitFor(() => bankButton(element, 'Complete authentication'), "the bank's page in the dialog");
  return { pending };
}

describe('<svc-ecom-sdk-elements> with 3-D Secure', () => {
  let element: SvcEcomSdkElements;
  let payButton: HTMLButtonElement;
  before(() => startApiMock());
  beforeEach(() => {
    payButton = document.createElement('button');
    payButton.textContent = 'Pay now';
    payButton.id = 'pay-now';
    document.body.append(payButton);
    payButton.focus();
  });
  afterEach(() => {
    document.querySelectorAll('svc-ecom-sdk-elements').forEach((node) => node.remove());
    payButton.remove();
    resetApiMock();
  });

  it("shows the bank's page in a named modal dialog over the widget, focus on Cancel, axe-clean", async () => {
    element = mount();
    await challenged(element);
    const dialog = dialogOf(element)!;
    expect(dialog.open && dialog.matches(':modal')).to.equal(true);
    expect(dialog.getAttribute('aria-modal')).to.equal('true');
    expect(element.shadowRoot!.getElementById(dialog.getAttribute('aria-labelledby')!)!.textContent).to.equal(EN['auth.dialog']);
    const frame = dialog.querySelector('iframe')!;
    expect(frame.title).to.equal(EN['auth.frame']);
    expect(new URL(frame.src).origin).to.equal(location.origin);
    expect(new URL(frame.src).pathname).to.match(/^\/authentication\/auth_/);
    expect(frame.src, 'no token in the merchant page').not.to.match(/tok_/);
    expect(element.shadowRoot!.activeElement === dialog.querySelector('button'), 'focus on Cancel').to.equal(true);
    expect(dialog.querySelector('button')!.textContent).to.equal(EN['auth.cancel']);
    const results = await axe.run(element, { resultTypes: ['violations'] });
    expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).to.deep.equal([]);
    await sendKeys({ press: 'Escape' });
  });

  it('completed: the dialog closes, pay resolves with the transaction awaiting commit, focus comes back', async () => {
    element = mount();
    const { pending } = await challenged(element);
    bankButton(element, 'Complete authentication')!.click();
    const transaction = (await pending) as { status: number };
    expect(transaction.status).to.equal(10);
    expect(dialogOf(element) === null, 'the dialog is gone').to.equal(true);
    expect(document.activeElement === payButton, 'focus back on the pay button').to.equal(true);
    await element.updateComplete;
    expect(element.state).to.equal('success');
  });

  it('Escape: the card frame cancels the authentication, pay rejects with payment_cancelled', async () => {
    element = mount();
    const { pending } = await challenged(element);
    await sendKeys({ press: 'Escape' });
    expect((await rejection(pending)).code).to.equal('payment_cancelled');
    expect(dialogOf(element) === null, 'the dialog is gone').to.equal(true);
    const cancel = calls.find((call) => call.url.endsWith('/cancel'))!;
    expect(new URL(cancel.url).pathname).to.match(/^\/authentication\/auth_\w+\/cancel$/);
    expect(cancel.authorization).to.match(/^Bearer tok_/);
    expect(new URL(cancel.url).origin, 'sent by the card frame, on the service origin').to.equal(location.origin);
    await element.updateComplete;
    expect(element.state).to.equal('ready');
    expect(document.activeElement === payButton, 'focus back on the pay button').to.equal(true);
  });

  it('Cancel button: the same, once', async () => {
    element = mount();
    const { pending } = await challenged(element);
    const cancel = dialogOf(element)!.querySelector('button')!;
    cancel.click();
    cancel.click();
    expect((await rejection(pending)).code).to.equal('payment_cancelled');
    expect(calls.filter((call) => call.url.endsWith('/cancel'))).to.have.length(1);
  });

  it('failed at the bank: authentication_failed', async () => {
    element = mount();
    const { pending: failed } = await challenged(element);
    bankButton(element, 'Fail authentication')!.click();
    expect((await rejection(failed)).code).to.equal('authentication_failed');
    expect(dialogOf(element) === null, 'the dialog is gone').to.equal(true);
  });

  it('completed, then declined by the card issuer: card_declined', async () => {
    element = mount();
    const { pending: declined } = await challenged(element, CHALLENGE_THEN_DECLINED);
    bankButton(element, 'Complete authentication')!.click();
    expect((await rejection(declined)).code).to.equal('card_declined');
  });

  it('leaves nothing behind when the element goes during the challenge', async () => {
    const listeners = spyOnListeners();
    try {
      element = mount();
      const { pending } = await challenged(element);
      const dialog = dialogOf(element)!;
      expect(listeners.live(), "the dialog's focus guard and the card frame channel").to.include('document focusin').and.to.include('window message');
      element.remove();
      expect(dialog.isConnected).to.equal(false);
      expect(listeners.live(), 'no listener left behind').to.deep.equal([]);
      expect((await rejection(pending)).code).to.equal('frame_unavailable');
      payButton.focus();
      expect(document.activeElement === payButton, 'no focus trap left on the page').to.equal(true);
    } finally {
      listeners.restore();
    }
  });
});

describe('<svc-ecom-sdk-elements> installments', () => {
  before(() => startApiMock());
  afterEach(() => {
    document.querySelectorAll('svc-ecom-sdk-elements').forEach((node) => node.remove());
    resetApiMock();
  });

  const select = (element: SvcEcomSdkElements) => frameOf(element).contentDocument!.querySelector<HTMLSelectElement>('#installments');

  it('offers 1 to maxInstallments beside the card fields, labelled, and sends the number chosen', async () => {
    const element = mount({ maxInstallments: 6 });
    await ready(element);
    const field = await waitFor(() => select(element), 'the number of payments');
    expect(field.labels![0]!.textContent).to.equal(EN['card.installments.label']);
    expect([...field.options].map((option) => option.value)).to.deep.equal(['1', '2', '3', '4', '5', '6']);
    expect(field.value).to.equal('1');
    field.value = '3';
    await typeCard(element, { number: '4242424242424242' });
    await element.pay({ amount: 3000, currency: 'ILS' });
    expect(calls.find((call) => call.url.endsWith('/payments'))!.body).to.deep.include({ installments: 3 });
  });

  it('asks the session for max-installments and offers what the session answers', async () => {
    const element = document.createElement('svc-ecom-sdk-elements');
    element.setAttribute('max-installments', '4');
    element.clientId = 'ck_test';
    element.mode = 'sandbox';
    element.apiBase = location.origin;
    document.body.append(element);
    await ready(element);
    expect(calls.find((call) => call.url.endsWith('/sdk/sessions'))!.body).to.deep.include({ maxInstallments: 4 });
    const field = await waitFor(() => select(element), 'the number of payments');
    expect(field.options).to.have.length(4);
  });

  it("is not offered when the merchant's processor takes no installments, whatever the page asks", async () => {
    const element = mount({ clientId: 'ck_noinstallments', maxInstallments: 4 });
    await ready(element);
    expect(calls.find((call) => call.url.endsWith('/sdk/sessions'))!.body).to.deep.include({ maxInstallments: 4 });
    await typeCard(element, { number: '4242424242424242' });
    await element.pay({ amount: 1000, currency: 'USD' });
    expect(select(element) === null, 'no number of payments').to.equal(true);
    expect(calls.find((call) => call.url.endsWith('/payments'))!.body).not.to.have.property('installments');
  });

  it('is not offered when the session allows one payment, and none is sent', async () => {
    const element = mount();
    await ready(element);
    await typeCard(element, { number: '4242424242424242' });
    await element.pay({ amount: 1000, currency: 'USD' });
    expect(select(element) === null, 'no number of payments').to.equal(true);
    expect(calls.find((call) => call.url.endsWith('/payments'))!.body).not.to.have.property('installments');
  });
});
