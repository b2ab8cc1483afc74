import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import 'axe-core/axe.min.js';
import type * as Axe from 'axe-core';
import { calls, resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { button, buttons, dialog, mountReady, NAMES, press, sheetButton, sheetOpen, waitFor } from '../../test/express-helpers';
import { SANDBOX_PARTY } from './party';

const axe = (window as unknown as { axe: typeof Axe }).axe;
const paymentCalls = () => calls.filter((call) => call.url.endsWith('/payments'));
const serious = async (root: Element) =>
  (await axe.run(root, { resultTypes: ['violations'] })).violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help}`);

describe('the sandbox wallet sheet', () => {
  before(() => startApiMock());
  afterEach(() => {
    document.querySelectorAll('svc-ecom-sdk-express').forEach((node) => node.remove());
    resetApiMock();
  });

  for (const method of ['paypal', 'applepay', 'googlepay'] as const) {
    it(`${NAMES[method]}: opens inside the click's user activation as a dialog named after the wallet; Pay sends the payment and onPay gets the spec's data`, async () => {
      const activeAtOpen: boolean[] = [];
      const showModal = HTMLDialogElement.prototype.showModal;
      HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
        activeAtOpen.push(navigator.userActivation.isActive);
        showModal.call(this);
      };
      try {
        const { element, seen } = await mountReady({ methodType: method === 'applepay' ? 'authorize' : 'manual_capture' });
        await press(element, method);
        const sheet = await sheetOpen(element);
        expect(activeAtOpen).to.deep.equal([true]);
        expect(sheet.querySelector(`#${sheet.getAttribute('aria-labelledby')}`)?.textContent).to.equal(NAMES[method]);
        expect(sheet.querySelector(`#${sheet.getAttribute('aria-describedby')}`)?.textContent).to.contain('Total $10.50');
        expect(seen.show).to.deep.equal([{ method }]);
        expect(paymentCalls()).to.have.length(0);
        sheetButton(element, 'Pay').click();
        await waitFor(() => seen.pay.length === 1, 'onPay');
        const [call] = paymentCalls();
        expect(call!.authorization).to.match(/^Bearer tok_\d+$/);
        expect(call!.body).to.deep.equal({ method, amount: 1050, currency: 'USD', billingInformation: SANDBOX_PARTY, shippingInformation: SANDBOX_PARTY });
        const data = seen.pay[0]!;
        expect(data).to.have.keys(['code', 'method', 'timestamp', 'transactionNumber', 'billingInformation', 'shippingInformation']);
        expect(data).to.deep.include({ code: 10, method, billingInformation: SANDBOX_PARTY, shippingInformation: SANDBOX_PARTY });
        expect(data.transactionNumber).to.match(/^T\d+$/);
        expect(new Date(data.timestamp).toISOString()).to.equal(data.timestamp);
        expect(sheet.open).to.equal(false);
        expect(element.shadowRoot!.activeElement).to.equal(button(element, method));
      } finally {
        HTMLDialogElement.prototype.showModal = showModal;
      }
    });
  }

  it('collects edited billing and separate shipping details', async () => {
    const { element, seen } = await mountReady();
    await press(element, 'paypal');
    const sheet = await sheetOpen(element);
    const field = (name: string) => sheet.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
    field('billing-firstName').value = 'Grace';
    field('billing-lastName').value = 'Hopper';
    const same = sheet.querySelector<HTMLInputElement>('input[type=checkbox]')!;
    expect(same.checked).to.equal(true);
    same.click();
    await element.updateComplete;
    expect(field('shipping-city').value).to.equal(SANDBOX_PARTY.city);
    field('shipping-city').value = 'Arlington';
    field('shipping-addressLine2').value = '';
    sheetButton(element, 'Pay').click();
    await waitFor(() => seen.pay.length === 1, 'onPay');
    expect(seen.pay[0]!.billingInformation).to.deep.include({ fullName: 'Grace Hopper', firstName: 'Grace', lastName: 'Hopper', city: SANDBOX_PARTY.city });
    expect(seen.pay[0]!.shippingInformation).to.deep.equal({ ...SANDBOX_PARTY, city: 'Arlington', addressLine2: '' });
  });

  it('a required field left empty keeps the sheet open and sends nothing', async () => {
    const { element, seen } = await mountReady();
    await press(element, 'paypal');
    const sheet = await sheetOpen(element);
    sheet.querySelector<HTMLInputElement>('input[name="billing-email"]')!.value = '';
    sheetButton(element, 'Pay').click();
    await element.updateComplete;
    expect(sheet.open).to.equal(true);
    expect(paymentCalls()).to.have.length(0);
    sheetButton(element, 'Cancel').click();
    await waitFor(() => seen.error.length === 1, 'onError');
  });

  it('Cancel ends it: payment_cancelled, no payment, buttons idle again, focus back on the button', async () => {
    const { element, seen } = await mountReady();
    await press(element, 'googlepay');
    const sheet = await sheetOpen(element);
    sheetButton(element, 'Cancel').click();
    await waitFor(() => seen.error.length === 1, 'onError');
    expect(seen.error[0]!.code).to.equal('payment_cancelled');
    expect(sheet.open).to.equal(false);
    expect(paymentCalls()).to.have.length(0);
    await element.updateComplete;
    expect(
      buttons(element).every(
        (candidate) => !candidate.disabled && !candidate.hasAttribute('data-processing') && !candidate.hasAttribute('data-other-processing'),
      ),
    ).to.equal(true);
    expect(element.shadowRoot!.activeElement).to.equal(button(element, 'googlepay'));
  });

  it('a double click opens one sheet and pays once; so does a double click on Pay', async () => {
    const { element, seen } = await mountReady();
    const paypal = button(element, 'paypal');
    paypal.click();
    paypal.click();
    await sheetOpen(element);
    const pay = sheetButton(element, 'Pay');
    pay.click();
    pay.click();
    await waitFor(() => seen.pay.length === 1, 'onPay');
    await element.updateComplete;
    expect(seen.show).to.have.length(1);
    expect(paymentCalls()).to.have.length(1);
    expect(seen.pay).to.have.length(1);
  });

  it('removed while its sheet is open: the sheet closes, nothing is paid or reported; put back, it works again', async () => {
    const { element, seen } = await mountReady();
    await press(element, 'paypal');
    const sheet = await sheetOpen(element);
    element.remove();
    expect(sheet.open).to.equal(false);
    await element.updateComplete;
    expect(seen.error).to.deep.equal([]);
    document.body.append(element);
    await element.updateComplete;
    expect(button(element, 'paypal').hasAttribute('data-processing')).to.equal(false);
    await press(element, 'paypal');
    await sheetOpen(element);
    sheetButton(element, 'Pay').click();
    await waitFor(() => seen.pay.length === 1, 'onPay after being put back');
    expect(seen.error).to.deep.equal([]);
    expect(paymentCalls()).to.have.length(1);
  });

  describe('keyboard', () => {
    it('Tab reaches the buttons, Enter opens the sheet with focus inside, Tab stays inside, Escape cancels', async () => {
      const { element, seen } = await mountReady();
      const outside = document.createElement('button');
      outside.textContent = 'Before';
      document.body.prepend(outside);
      try {
        outside.focus();
        await sendKeys({ press: 'Tab' });
        expect(element.shadowRoot!.activeElement).to.equal(button(element, 'paypal'));
        await sendKeys({ press: 'Tab' });
        expect(element.shadowRoot!.activeElement).to.equal(button(element, 'applepay'));
        await sendKeys({ press: 'Enter' });
        const sheet = await sheetOpen(element);
        expect(sheet.contains(element.shadowRoot!.activeElement)).to.equal(true);
        expect(element.shadowRoot!.activeElement?.getAttribute('name')).to.equal('billing-firstName');
        // Around the whole sheet and once more: focus never leaves it.
        const focusable = sheet.querySelectorAll('input, button').length;
        for (let i = 0; i <= focusable; i += 1) {
          await sendKeys({ press: 'Tab' });
          expect(sheet.contains(element.shadowRoot!.activeElement), `after ${i + 1} Tab presses`).to.equal(true);
        }
        await sendKeys({ press: 'Shift+Tab' });
        expect(sheet.contains(element.shadowRoot!.activeElement)).to.equal(true);
        await sendKeys({ press: 'Escape' });
        await waitFor(() => seen.error.length === 1, 'onError');
        expect(seen.error[0]!.code).to.equal('payment_cancelled');
        expect(sheet.open).to.equal(false);
        expect(element.shadowRoot!.activeElement).to.equal(button(element, 'applepay'));
      } finally {
        outside.remove();
      }
    });

    it('Enter on Pay pays', async () => {
      const { element, seen } = await mountReady();
      await press(element, 'paypal');
      await sheetOpen(element);
      sheetButton(element, 'Pay').focus();
      await sendKeys({ press: 'Enter' });
      await waitFor(() => seen.pay.length === 1, 'onPay');
    });
  });

  it('has no serious or critical accessibility violation (axe), with the buttons and with the sheet open', async () => {
    const { element } = await mountReady();
    expect(await serious(element)).to.deep.equal([]);
    await press(element, 'paypal');
    await sheetOpen(element);
    expect(await serious(dialog(element))).to.deep.equal([]);
    sheetButton(element, 'Cancel').click();
  });
});
