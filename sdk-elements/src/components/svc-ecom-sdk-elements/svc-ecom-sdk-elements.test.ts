import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import 'axe-core/axe.min.js';
import type * as Axe from 'axe-core';
import type { Transaction } from '@svc/protocol';
import { calls, http, HttpResponse, resetApiMock, startApiMock, worker } from '@svc/sdk-core/testing/api-mock';
import { frameOf, mount, part, radios, ready, record, typeCard } from '../../../test/element-helpers';
import { otherOrigin, sleep, waitFor } from '@svc/sdk-core/testing/helpers';
import { spyOnListeners } from '@svc/sdk-core/testing/listener-spy';
import { resetWarnings, type SdkErrorException } from '@svc/sdk-core/shared';
import { EN_WIDGET } from '@svc/sdk-core/i18n';
import type { SvcEcomSdkElements } from './svc-ecom-sdk-elements';

const axe = (window as unknown as { axe: typeof Axe }).axe;
const ALL_EVENTS = ['svc-ready', 'svc-payment-selected', 'svc-paying', 'svc-validation-status', 'svc-error', 'svc-payment-success'];
const paymentCalls = () => calls.filter((call) => call.url.endsWith('/payments'));
const sessionCalls = () => calls.filter((call) => call.url.endsWith('/sdk/sessions'));

async function rejection(promise: Promise<unknown>): Promise<SdkErrorException> {
  try {
    await promise;
  } catch (error) {
    return error as SdkErrorException;
  }
  throw new Error('expected pay() to reject');
}

describe('<svc-ecom-sdk-elements>', () => {
  let element: SvcEcomSdkElements;
  before(() => startApiMock());
  afterEach(() => {
    document.querySelectorAll('svc-ecom-sdk-elements').forEach((node) => node.remove());
    resetApiMock();
  });

  describe('loading', () => {
    it("starts a session, then offers the session's methods as a radio group with card chosen", async () => {
      element = mount();
      const events = record(element, ALL_EVENTS);
      await element.updateComplete;
      expect(element.state).to.equal('loading');
      expect(element.getAttribute('state')).to.equal('loading');
      expect(part(element, 'spinner')).to.exist;
      expect(part(element, 'status')!.textContent).to.equal('Loading payment methods…');
      await ready(element);
      expect(sessionCalls()[0]!.body).to.deep.equal({ clientId: 'ck_test', methodType: 'manual_capture', mode: 'sandbox' });
      expect(part(element, 'base')!.getAttribute('aria-busy')).to.equal('false');
      const legend = element.shadowRoot!.querySelector('fieldset legend');
      expect(legend?.textContent).to.equal('Payment method');
      expect(radios(element).map((radio) => radio.value)).to.deep.equal(['card', 'paypal', 'applepay', 'googlepay']);
      expect(radios(element)[0]!.checked).to.equal(true);
      expect(events.slice(0, 2)).to.deep.equal([
        { type: 'svc-ready', detail: { paymentMethods: ['card', 'paypal', 'applepay', 'googlepay'] } },
        { type: 'svc-payment-selected', detail: { paymentMethod: 'card' } },
      ]);
    });

    it('embeds the card frame from the service with a title, the client ID, this origin and its instance id', async () => {
      element = mount();
      await ready(element);
      const iframe = frameOf(element);
      expect(iframe.title).to.equal('Secure card payment form');
      expect(iframe.getAttribute('part')).to.equal('frame');
      const url = new URL(iframe.src);
      expect(url.origin + url.pathname).to.equal(`${location.origin}/sdk/elements/1.1.1/card-frame.html`);
      expect(url.searchParams.get('clientId')).to.equal('ck_test');
      expect(url.searchParams.get('origin')).to.equal(location.origin);
      expect(url.hash).to.equal(`#instance=${element.instanceId}`);
      await waitFor(() => parseFloat(iframe.style.height) > 100, 'the frame height follows its content');
    });

    it('hides the method choice when the session offers card only', async () => {
      element = mount({ clientId: 'ck_cardonly' });
      await ready(element);
      expect(element.shadowRoot!.querySelector('fieldset')).to.equal(null);
      expect(element.paymentMethod).to.equal('card');
    });

    it('reports an unknown client ID and an origin not allowed, with a retry button', async () => {
      element = mount({ clientId: 'ck_unknown' });
      const errors = record(element, ['svc-error']);
      await waitFor(() => element.state === 'error', 'error state');
      expect(errors[0]!.detail).to.include({ code: 'client_id_unknown' });
      expect((errors[0]!.detail as { message: string }).message, "the developer's advice").to.contain('ck_unknown');
      expect(part(element, 'error')!.getAttribute('role')).to.equal('alert');
      expect(part(element, 'error')!.textContent, "the shopper's text").to.equal('Payment is not available right now. Please try again later.');
      expect(part(element, 'retry')).to.exist;

      const forbidden = mount({ clientId: 'ck_forbidden' });
      const forbiddenErrors = record(forbidden, ['svc-error']);
      await waitFor(() => forbiddenErrors.length > 0, 'error');
      expect(forbiddenErrors[0]!.detail).to.include({ code: 'origin_not_allowed' });
      expect((forbiddenErrors[0]!.detail as { message: string }).message).to.contain(location.origin);
    });

    it('reports a network failure and recovers with "Try again"', async () => {
      worker.use(http.post('*/sdk/sessions', () => HttpResponse.error(), { once: true }));
      element = mount();
      const errors = record(element, ['svc-error']);
      await waitFor(() => element.state === 'error', 'error state');
      expect(errors[0]!.detail).to.include({ code: 'network_error' });
      part(element, 'retry')!.click();
      await ready(element);
      expect(part(element, 'error')!.textContent).to.equal('');
    });

    it('reports a card frame that never completes its handshake (e.g. blocked by CSP or not served)', async () => {
      const { SvcEcomSdkElements } = await import('./svc-ecom-sdk-elements');
      SvcEcomSdkElements.frameTimeoutMs = 300;
      try {
        element = mount({ apiBase: `${location.origin}/no-such-service` }); // the frame URL answers 404
        const errors = record(element, ['svc-error']);
        await waitFor(() => errors.length > 0, 'frame_unavailable', 3000);
        expect(errors[0]!.detail).to.include({ code: 'frame_unavailable' });
        expect((errors[0]!.detail as { message: string }).message).to.contain(location.origin);
        radios(element)[1]!.click();
        expect((await element.pay({ amount: 100, currency: 'USD' })).status, 'wallets still work').to.equal(10);
      } finally {
        SvcEcomSdkElements.frameTimeoutMs = 5000;
      }
    });

    it('refuses an incomplete configuration without calling the service', async () => {
      element = mount({ clientId: 'oops' });
      const errors = record(element, ['svc-error']);
      expect((await rejection(element.pay({ amount: 100, currency: 'USD' }))).code, 'pay right away').to.equal('config_invalid');
      expect(errors[0]!.detail).to.include({ code: 'config_invalid' });
      expect((errors[0]!.detail as { message: string }).message).to.contain('client-id');
      expect(element.state).to.equal('error');
      expect(part(element, 'retry')).to.equal(null);
      expect(calls).to.have.length(0);
    });

    it('reports a removed client-id attribute or a null setting as config_invalid, never a TypeError', async () => {
      const uncaught: unknown[] = [];
      const onError = (event: ErrorEvent) => uncaught.push(event.error);
      const onRejection = (event: PromiseRejectionEvent) => uncaught.push(event.reason);
      window.addEventListener('error', onError);
      window.addEventListener('unhandledrejection', onRejection);
      try {
        element = document.createElement('svc-ecom-sdk-elements');
        element.setAttribute('client-id', 'ck_test');
        element.setAttribute('mode', 'sandbox');
        element.setAttribute('method-type', 'authorize');
        element.setAttribute('api-base', location.origin);
        document.body.append(element);
        await ready(element);
        const errors = record(element, ['svc-error']);
        element.removeAttribute('client-id');
        element.removeAttribute('method-type'); // back to the default, as when it was never set
        await element.updateComplete;
        expect(errors.map((error) => (error.detail as { code: string }).code)).to.deep.equal(['config_invalid']);
        expect((errors[0]!.detail as { message: string }).message)
          .to.contain('client-id')
          .and.not.to.contain('method-type');
        expect(element.state).to.equal('error');
        const refused = await rejection(element.pay({ amount: 100, currency: 'USD' }));
        expect(refused.name).to.equal('SdkError');
        expect(refused.code).to.equal('config_invalid');

        element.setAttribute('client-id', 'ck_test');
        await ready(element);
        expect(sessionCalls().at(-1)!.body).to.include({ methodType: 'manual_capture' });
        for (const [name, value] of [
          ['clientId', null],
          ['mode', undefined],
          ['clientId', 42],
        ] as const) {
          (element as unknown as Record<string, unknown>)[name] = value;
          await element.updateComplete;
          expect(element.state, `${name} = ${String(value)}`).to.equal('error');
          element.clientId = 'ck_test';
          element.mode = 'sandbox';
          await ready(element);
        }
        (element as unknown as Record<string, unknown>)['apiBase'] = null; // the default: the SDK script's origin
        await ready(element);
        await sleep(0);
        // the removed attribute, the refused pay(), clientId null, mode undefined, clientId 42
        expect(errors.map((error) => (error.detail as { code: string }).code)).to.deep.equal(Array(5).fill('config_invalid'));
        expect(uncaught).to.deep.equal([]);
      } finally {
        window.removeEventListener('error', onError);
        window.removeEventListener('unhandledrejection', onRejection);
      }
    });
  });

  describe('choosing and validating', () => {
    it('is used with the keyboard: arrows choose the method, Tab enters the card frame', async () => {
      element = mount();
      await ready(element);
      const events = record(element, ['svc-payment-selected', 'svc-validation-status']);
      radios(element)[0]!.focus();
      await sendKeys({ press: 'ArrowRight' });
      expect(element.paymentMethod).to.equal('paypal');
      expect(part(element, 'card')!.hidden).to.equal(true);
      expect(part(element, 'wallet-note')!.textContent).to.contain('PayPal');
      expect(events).to.deep.equal([
        { type: 'svc-payment-selected', detail: { paymentMethod: 'paypal' } },
        { type: 'svc-validation-status', detail: { isValid: true, errors: [] } },
      ]);
      await sendKeys({ press: 'ArrowLeft' });
      expect(element.paymentMethod).to.equal('card');
      await sendKeys({ press: 'Tab' });
      expect(element.shadowRoot!.activeElement).to.equal(frameOf(element));
      await sendKeys({ type: '4242424242424242' });
      const number = frameOf(element).contentDocument!.getElementById('number') as HTMLInputElement;
      expect(number.value).to.equal('4242 4242 4242 4242');
    });

    it('reports the card validation status without card data', async () => {
      element = mount();
      await ready(element);
      const events = record(element, ['svc-validation-status']);
      await typeCard(element, { number: '4242424242424242', expiry: '1230', cvc: '737' });
      await waitFor(() => (events.at(-1)?.detail as { isValid: boolean } | undefined)?.isValid, 'valid');
      const first = events[0]!.detail as { isValid: boolean; errors: { field: string }[] };
      expect(first.isValid).to.equal(false);
      expect(first.errors.map((error) => error.field)).to.include('expiry');
      expect(JSON.stringify(events)).to.not.match(/4242|737|12\/30/);
    });
  });

  describe('paying', () => {
    it('pays by card: paying events, the transaction in status 10, the success state', async () => {
      element = mount();
      await ready(element);
      const events = record(element, ['svc-paying', 'svc-payment-success', 'svc-error']);
      await typeCard(element, { number: '4242424242424242' });
      const pending = element.pay({ amount: 1050, currency: 'usd' });
      await waitFor(() => element.state === 'paying', 'paying');
      expect(part(element, 'status')!.textContent).to.equal('Processing the payment…');
      expect(radios(element).every((radio) => radio.disabled)).to.equal(true);
      const transaction: Transaction = await pending;
      expect(transaction.status).to.equal(10);
      expect(transaction.paymentCommit).to.include({ isPaymentCommitted: false, secondsToCommit: 600 });
      expect(events.map((event) => event.type)).to.deep.equal(['svc-paying', 'svc-payment-success', 'svc-paying']);
      expect(events[0]!.detail).to.deep.equal({ isPaying: true });
      expect(events[2]!.detail).to.deep.equal({ isPaying: false });
      await element.updateComplete;
      expect(element.state).to.equal('success');
      expect(part(element, 'success')!.textContent).to.equal('Payment accepted.');
      expect(part(element, 'card')!.hidden).to.equal(true);
      const payment = paymentCalls()[0]!;
      expect(payment.authorization).to.match(/^Bearer tok_\d+$/);
      expect(payment.body).to.deep.include({ method: 'card', amount: 1050, currency: 'USD' });

      const again = await rejection(element.pay({ amount: 1050, currency: 'USD' }));
      expect(again.code, 'a completed widget does not pay twice').to.equal('payment_in_progress');
      element.reset();
      await ready(element);
      expect(element.state).to.equal('ready');
    });

    for (const [number, code] of [
      ['4000000000000002', 'card_declined'],
      ['4000000000009995', 'insufficient_funds'],
      ['4000000000000119', 'processor_failure'],
    ] as const) {
      it(`reports ${code} and lets the customer try again`, async () => {
        element = mount();
        await ready(element);
        const errors = record(element, ['svc-error']);
        await typeCard(element, { number });
        const error = await rejection(element.pay({ amount: 1050, currency: 'USD' }));
        expect(error.code).to.equal(code);
        expect(errors.map((event) => (event.detail as { code: string }).code)).to.deep.equal([code]);
        await element.updateComplete;
        expect(element.state).to.equal('ready');
        // The shopper reads the catalogue's text for the code; the merchant's error event carries the developer's message.
        expect(part(element, 'error')!.textContent).to.equal(EN_WIDGET[`error.${code}`]);
      });
    }

    it('pays with a wallet from the page itself, with the session token', async () => {
      element = mount();
      await ready(element);
      radios(element)[1]!.click();
      const transaction = await element.pay({ amount: 2500, currency: 'EUR', billingAddress: { city: 'Paris' } });
      expect(transaction.amountCents).to.equal(2500);
      const payment = paymentCalls()[0]!;
      expect(payment.body).to.deep.equal({ method: 'paypal', amount: 2500, currency: 'EUR', billingAddress: { city: 'Paris' } });
      expect(payment.authorization).to.match(/^Bearer tok_/);
    });

    it('checks the pay options', async () => {
      element = mount();
      await ready(element);
      expect((await rejection(element.pay())).code, 'manual_capture needs an amount').to.equal('invalid_amount');
      expect((await rejection(element.pay({ amount: 10.5, currency: 'USD' }))).code).to.equal('invalid_amount');
      expect((await rejection(element.pay({ amount: 1050, currency: 'GBP' }))).code).to.equal('invalid_amount');
      const unknown = await rejection(element.pay({ amount: 1050, currency: 'USD', tip: 1 } as never));
      expect(unknown.code).to.equal('config_invalid');
      expect(unknown.message).to.contain('tip');
      expect(paymentCalls()).to.have.length(0);
    });

    it('tokenize may pay without an amount', async () => {
      element = mount({ methodType: 'tokenize' });
      await ready(element);
      radios(element)[2]!.click();
      await element.pay();
      expect(sessionCalls()[0]!.body).to.include({ methodType: 'tokenize' });
      expect(paymentCalls()[0]!.body).to.deep.equal({ method: 'applepay' });
    });
  });

  describe('page integration', () => {
    it('reports its dimensions when its size changes', async () => {
      const box = document.createElement('div');
      box.style.width = '500px';
      document.body.append(box);
      element = mount({ parent: box });
      const sizes = record(element, ['svc-dimensions']);
      await ready(element);
      await waitFor(() => sizes.length > 0, 'a size');
      box.style.width = '320px';
      await waitFor(() => (sizes.at(-1)!.detail as { width: number }).width === 320, 'the new width');
      expect(element.dimensions.width).to.equal(320);
      expect(element.dimensions.height).to.be.greaterThan(100);
      box.remove();
    });

    it('has no accessibility violations (axe)', async () => {
      element = mount();
      await ready(element);
      const results = await axe.run(element, { resultTypes: ['violations'] });
      expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).to.deep.equal([]);
      radios(element)[1]!.click();
      await element.updateComplete;
      const wallet = await axe.run(element, { resultTypes: ['violations'] });
      expect(wallet.violations.map((violation) => violation.id)).to.deep.equal([]);
    });

    it('themes through CSS custom properties and parts', async () => {
      const style = document.createElement('style');
      style.textContent = `svc-ecom-sdk-elements.themed { --svc-color-accent: rgb(1, 2, 3); } svc-ecom-sdk-elements.themed::part(method-selected) { color: rgb(4, 5, 6); }`;
      document.head.append(style);
      element = mount();
      element.classList.add('themed');
      await ready(element);
      const selected = part(element, 'method-selected')!;
      expect(getComputedStyle(selected).color).to.equal('rgb(4, 5, 6)');
      expect(getComputedStyle(selected).borderColor).to.equal('rgb(1, 2, 3)');
      style.remove();
    });

    it('removes every listener it added when it leaves the page, and settles a pending payment', async () => {
      const listeners = spyOnListeners();
      try {
        element = mount();
        await ready(element);
        expect(listeners.live(), 'mounted: the card frame channel').to.include('window message');
        await typeCard(element, { number: '4242424242424242' });
        let sent = false;
        worker.use(
          http.post(
            '*/payments',
            async () => {
              sent = true;
              await sleep(2000);
              return HttpResponse.error();
            },
            { once: true },
          ),
        );
        const pending = element.pay({ amount: 1050, currency: 'USD' });
        await waitFor(() => sent, 'the payment under way');
        element.remove();
        expect(listeners.live(), 'no listener left behind').to.deep.equal([]);
        expect((await rejection(pending)).code).to.equal('frame_unavailable');
      } finally {
        listeners.restore();
      }
    });

    it('runs two widgets on one page independently', async () => {
      const first = mount();
      const second = mount();
      await Promise.all([ready(first), ready(second)]);
      expect(first.instanceId).to.not.equal(second.instanceId);
      const firstEvents = record(first, ['svc-validation-status', 'svc-payment-success']);
      const secondEvents = record(second, ['svc-validation-status', 'svc-payment-success']);
      await typeCard(first, { number: '4242424242424242' });
      await waitFor(() => firstEvents.length > 0, 'validation of the first');
      expect(secondEvents, 'typing in the first frame says nothing to the second').to.have.length(0);
      radios(second)[1]!.click();
      secondEvents.length = 0;
      const [a, b] = await Promise.all([first.pay({ amount: 100, currency: 'USD' }), second.pay({ amount: 200, currency: 'USD' })]);
      expect([a.amountCents, b.amountCents]).to.deep.equal([100, 200]);
      expect(firstEvents.filter((event) => event.type === 'svc-payment-success')).to.have.length(1);
      expect(secondEvents.filter((event) => event.type === 'svc-payment-success')).to.have.length(1);
      expect(
        paymentCalls()
          .map((call) => call.body['method'])
          .sort(),
      ).to.deep.equal(['card', 'paypal']);
    });

    it('works with the card frame on another origin (the real deployment shape)', async () => {
      element = mount({ apiBase: otherOrigin() });
      await ready(element);
      expect(new URL(frameOf(element).src).origin).to.equal(otherOrigin());
      expect(frameOf(element).contentDocument, 'cross-origin: the page cannot read the frame').to.equal(null);
      const validation = record(element, ['svc-validation-status']);
      radios(element)[0]!.focus();
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: '4242424242424242' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: '1230' }); // a complete expiry moves on to the CVC by itself
      await sendKeys({ type: '123' });
      await waitFor(() => (validation.at(-1)?.detail as { isValid?: boolean } | undefined)?.isValid, 'a valid card in the cross-origin frame');
      const transaction = await element.pay({ amount: 4200, currency: 'USD' });
      expect(transaction).to.include({ status: 10, amountCents: 4200 });
      expect(paymentCalls(), 'the card went from the frame to its own origin, not through this page').to.have.length(0);
    });
  });

  describe('appearance', () => {
    const { warn } = console;
    afterEach(() => {
      console.warn = warn;
    });

    it('applies to its own parts only what the card frame accepted, and nothing before the frame answered', async () => {
      resetWarnings();
      const warnings: string[] = [];
      console.warn = (message: string) => warnings.push(message);
      element = mount({ apiBase: otherOrigin(), debug: true });
      element.appearance = {
        theme: 'night',
        variables: { colorText: 'rgb(250, 240, 230)' },
        rules: { '.Tab': { backgroundColor: 'rgb(1, 2, 3)', backgroundImage: 'url(/x.png)' } },
      };
      await element.updateComplete;
      expect(getComputedStyle(element).color, 'the default look until the frame has checked the appearance').to.equal('rgb(26, 26, 26)');
      await ready(element);
      await waitFor(() => getComputedStyle(element).color === 'rgb(250, 240, 230)', "the frame's accepted variables on the element");
      const tab = part(element, 'method')!;
      await waitFor(() => getComputedStyle(tab).backgroundColor === 'rgb(1, 2, 3)', "the frame's accepted rule on the tabs");
      expect(getComputedStyle(tab).backgroundImage, 'a refused value is never applied').to.equal('none');
      const warning = await waitFor(() => warnings.find((line) => line.includes('appearance-refused')), "the frame's refusals, in debug mode");
      expect(warning).to.contain('rules[".Tab"].backgroundImage');

      element.appearance = undefined;
      await waitFor(() => getComputedStyle(element).color === 'rgb(26, 26, 26)', 'back to the default look');
      expect(getComputedStyle(tab).backgroundColor).to.equal('rgba(0, 0, 0, 0)');
    });
  });
});
