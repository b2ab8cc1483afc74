/**
 * One suite for what every payment widget does (sdk-core's WidgetController: the pay guards in their order, session
 * readiness, the method choice, the paying state, the errors, and frameDimensions), run by each SDK's tests against its
 * own widget through the public `ServiceFrontEndSDK`: Elements' element and the iframe SDK's widget page. A package
 * calls `describeWidgetBehaviour(name, driver)` with a driver that creates its SDK and reaches into its widget. What an
 * error says, to the page and to the shopper, is widget-error-texts.ts.
 */
import { expect } from '@open-wc/testing';
import type { Transaction } from '@svc/protocol';
import type { ServiceFrontEndSDK } from '../host/service-front-end-sdk';
import { EN_WIDGET } from '../shared/i18n/en';
import { resetWarnings } from '../shared/warnings';
import { calls, http, HttpResponse, resetApiMock, startApiMock, worker } from './api-mock';
import { waitFor } from './helpers';
import { describeErrorTexts, type Seen, type WidgetDriver } from './widget-error-texts';

export type { WidgetDriver };

const CONFIG = { mode: 'sandbox', clientId: 'ck_test' } as const;
const AMOUNT = { amount: 1050, currency: 'USD' } as const;
const payments = () => calls.filter((call) => call.url.endsWith('/payments'));

export function describeWidgetBehaviour(name: string, driver: WidgetDriver): void {
  describe(`${name}: the widget's behaviour (sdk-core's WidgetController)`, () => {
    let sdk: ServiceFrontEndSDK;
    let seen: Seen;
    let container: HTMLDivElement;
    const { warn, debug } = console;

    before(() => startApiMock());
    beforeEach(() => {
      resetWarnings();
      console.warn = () => undefined;
      console.debug = () => undefined;
      container = document.createElement('div');
      container.id = 'service-front-end';
      container.style.width = '420px';
      document.body.append(container);
      sdk = driver.create();
      seen = { order: [], errors: [], paying: [], selected: [], validation: [], dimensions: [] };
      sdk.error((error) => {
        seen.errors.push(error);
        seen.order.push(`error:${error.code}`);
      });
      sdk.paying(({ isPaying }) => {
        seen.paying.push(isPaying);
        seen.order.push(`paying:${isPaying}`);
      });
      sdk.paymentSelected(({ paymentMethod }) => seen.selected.push(paymentMethod));
      sdk.paymentMethodValidationStatus((status) => seen.validation.push(status));
      sdk.frameDimensions((size) => seen.dimensions.push(size));
    });
    afterEach(() => {
      Object.assign(console, { warn, debug });
      sdk.destroy();
      container.remove();
      resetApiMock();
    });

    async function start(options: Record<string, unknown> = {}): Promise<void> {
      sdk.config({ ...CONFIG, ...options } as never);
      sdk.init();
      await driver.cardShown(container);
      await waitFor(() => seen.validation.length > 0, 'the card validation status');
    }

    /** A payment the test expects to succeed: resolves with what the pay callback got. */
    function pay(options: Record<string, unknown> = AMOUNT): Promise<Transaction> {
      return new Promise((resolve) =>
        sdk.pay((transaction) => {
          seen.order.push('paid');
          resolve(transaction);
        }, options as never),
      );
    }

    /** A payment the test expects to be refused: the code of the error it got (its callback is never called). */
    async function refused(options: Record<string, unknown> = AMOUNT): Promise<string> {
      const before = seen.errors.length;
      sdk.pay(() => seen.order.push('paid'), options as never);
      await waitFor(() => seen.errors.length > before, 'the refusal');
      return seen.errors.at(-1)!.code;
    }

    async function validCard(number = '4242424242424242'): Promise<void> {
      await driver.fillCard(container, number);
      await waitFor(() => seen.validation.at(-1)?.isValid, 'a valid card');
    }

    describe('readiness', () => {
      it('a pay() before the session is ready reports the fields as not yet valid, and starts no payment', async () => {
        sdk.config(CONFIG);
        sdk.init();
        expect(await refused()).to.equal('fields_incomplete');
        expect(seen.paying, 'no payment started').to.deep.equal([]);
        await driver.cardShown(container);
        expect(seen.errors.map((error) => error.code)).to.deep.equal(['fields_incomplete']);
        expect(payments()).to.have.length(0);
      });

      it('a session the service refused: pay() reports that refusal, and starts no payment', async () => {
        sdk.config({ mode: 'sandbox', clientId: 'ck_unknown' });
        sdk.init();
        await waitFor(() => seen.errors.length === 1, 'the refusal');
        expect(await refused()).to.equal('client_id_unknown');
        expect(seen.errors.map((error) => error.code)).to.deep.equal(['client_id_unknown', 'client_id_unknown']);
        expect(seen.paying).to.deep.equal([]);
      });

      it('the session expired during a payment: session_expired, then a new session to pay with', async () => {
        worker.use(
          http.post(
            '*/sdk/sessions',
            () =>
              HttpResponse.json({
                sessionId: 'ses_old',
                sessionToken: 'tok_expired',
                paymentMethods: ['card', 'paypal'],
                expiresAt: new Date().toISOString(),
                maxInstallments: 1,
              }),
            { once: true },
          ),
        );
        await start();
        await driver.choose(container, 'paypal');
        await waitFor(() => seen.selected.includes('paypal'), 'paypal chosen');
        const sessions = () => calls.filter((call) => call.url.endsWith('/sdk/sessions')).length;
        const before = sessions();
        expect(await refused()).to.equal('session_expired');
        await waitFor(() => seen.paying.length === 2, 'paying true, then false');
        await waitFor(() => sessions() > before, 'a new session');
        await driver.ready(container);
        expect((await pay()).status).to.equal(10);
        expect(payments().at(-1)!.authorization).to.not.equal('Bearer tok_expired');
      });
    });

    describe('the pay guards, in their order', () => {
      it('already paying comes first: a second pay() while one runs gets payment_in_progress, even with bad options', async () => {
        await start();
        await validCard();
        // The service answers the first payment only once the second pay() was refused.
        let answer = (): void => undefined;
        const answered = new Promise<void>((resolve) => (answer = resolve));
        worker.use(http.post('*/sdk/sessions/:sessionId/payments', () => answered.then(() => undefined), { once: true }));
        const first = pay();
        await waitFor(() => seen.paying.length === 1, 'paying');
        expect(await refused({ amount: 10.5, currency: 'USD' })).to.equal('payment_in_progress');
        expect(driver.alertText(container), 'the alert shows the running payment, not an error').to.equal('');
        answer();
        expect((await first).status).to.equal(10);
        expect(payments()).to.have.length(1);
        // A completed widget does not pay again either.
        expect(await refused()).to.equal('payment_in_progress');
        expect(seen.paying).to.deep.equal([true, false]);
      });

      it('the pay button and pay() together: a click whose own handler calls pay() is one payment, refused once while the card is not complete', async () => {
        const button = Object.assign(document.createElement('button'), { id: 'widget-behaviour-pay', textContent: 'Pay' });
        document.body.append(button);
        try {
          await start({ payButtonId: button.id });
          button.addEventListener('click', () => sdk.pay(() => seen.order.push('paid'), AMOUNT));
          button.click();
          await waitFor(() => seen.errors.length > 0, 'the refusal');
          // A round trip through the widget: whatever the click started has answered by now.
          await driver.choose(container, 'paypal');
          await waitFor(() => seen.selected.includes('paypal'), 'paypal chosen');
          expect(seen.errors.map((error) => error.code)).to.deep.equal(['fields_incomplete']);
          button.click();
          await waitFor(() => seen.order.includes('paid'), 'the payment');
          expect(payments()).to.have.length(1);
          expect(seen.errors).to.have.length(1);
        } finally {
          button.remove();
        }
      });

      it('then the options: bad amounts are refused before anything starts', async () => {
        await start();
        await validCard();
        expect(await refused({ currency: 'USD' })).to.equal('invalid_amount');
        expect(await refused({ amount: 10.5, currency: 'USD' })).to.equal('invalid_amount');
        expect(seen.paying).to.deep.equal([]);
        expect(payments()).to.have.length(0);
      });

      it('then the method: a session without payment methods reports config_invalid, and so does pay()', async () => {
        worker.use(
          http.post(
            '*/sdk/sessions',
            () =>
              HttpResponse.json({
                sessionId: 'ses_none',
                sessionToken: 'tok_none',
                paymentMethods: [],
                expiresAt: new Date(Date.now() + 60_000).toISOString(),
                maxInstallments: 1,
              }),
            { once: true },
          ),
        );
        sdk.config(CONFIG);
        sdk.init();
        await waitFor(() => seen.errors.length === 1, 'no method');
        expect(await refused()).to.equal('config_invalid');
        expect(seen.errors.map((error) => error.code)).to.deep.equal(['config_invalid', 'config_invalid']);
        expect(seen.errors[1]!.message).to.contain('No payment method');
        expect(seen.paying).to.deep.equal([]);
      });

      it('then the fields: a pay() before the shopper typed reports them as not yet valid (not a card error), with their status', async () => {
        await start();
        const before = seen.validation.length;
        expect(await refused()).to.equal('fields_incomplete');
        expect(seen.errors[0]!.message, "the shopper's text").to.equal(EN_WIDGET['error.fields_incomplete']);
        expect(seen.paying, 'no payment started').to.deep.equal([]);
        expect(seen.validation.length, 'the fields status is reported again').to.equal(before + 1);
        expect(seen.validation.at(-1)!.isValid).to.equal(false);
        expect(payments()).to.have.length(0);
      });
    });

    describe('the method choice', () => {
      it("the session's first method is chosen; a wallet is valid at once and pays without card fields", async () => {
        await start();
        expect(seen.selected).to.deep.equal(['card']);
        expect(seen.validation.at(-1)!.isValid).to.equal(false);
        await driver.choose(container, 'paypal');
        await waitFor(() => seen.selected.length === 2, 'paypal chosen');
        expect(seen.selected).to.deep.equal(['card', 'paypal']);
        expect(seen.validation.at(-1)).to.deep.equal({ isValid: true, errors: [] });
        const transaction = await pay({ amount: 2500, currency: 'EUR' });
        expect(transaction).to.include({ status: 10, amountCents: 2500 });
        expect(payments()[0]!.body).to.deep.equal({ method: 'paypal', amount: 2500, currency: 'EUR' });
        expect(payments()[0]!.authorization).to.match(/^Bearer tok_/);
      });
    });

    describe("the merchant's choice of methods (config({ paymentMethods }))", () => {
      it('offers only the methods chosen, of those the session offers, as radios named for QA', async () => {
        await start({ paymentMethods: ['paypal', 'card'] });
        expect(await driver.shownMethods(container)).to.deep.equal(['Card', 'PayPal']);
        expect(seen.selected).to.deep.equal(['card']);
      });

      it('one method: no choice to make; it is chosen and pays', async () => {
        sdk.config({ ...CONFIG, paymentMethods: ['paypal'] });
        sdk.init();
        await waitFor(() => seen.selected.includes('paypal'), 'paypal chosen');
        await driver.ready(container);
        expect(await driver.shownMethods(container)).to.deep.equal([]);
        expect(await driver.cardFieldsShown(container)).to.equal(false);
        await pay();
        expect(payments()[0]!.body).to.deep.include({ method: 'paypal' });
      });

      it('a method the session does not offer is never shown; none left is config_invalid', async () => {
        sdk.config({ mode: 'sandbox', clientId: 'ck_cardonly', paymentMethods: ['googlepay'] });
        sdk.init();
        await waitFor(() => seen.errors.length === 1, 'no method');
        expect(seen.errors[0]!.code).to.equal('config_invalid');
        expect(await driver.shownMethods(container)).to.deep.equal([]);
      });

      it('in production a device wallet shows only where the browser offers it (not in this Chromium)', async () => {
        expect('ApplePaySession' in window, 'this browser has no Apple Pay').to.equal(false);
        await start({ mode: 'production' });
        expect(await driver.shownMethods(container)).to.deep.equal(['Card', 'PayPal']);
      });
    });

    describe('appearance', () => {
      it('reaches the card fields, and update() changes it at once, keeping what was typed', async () => {
        await start({ appearance: { theme: 'night', rules: { '.Input': { backgroundColor: 'rgb(1, 2, 3)' } } } });
        const number = await driver.cardNumber(container);
        const view = number.ownerDocument.defaultView!;
        await waitFor(() => view.getComputedStyle(number).backgroundColor === 'rgb(1, 2, 3)', 'the rule on the card number');
        await driver.fillCard(container, '4242424242424242');
        sdk.update({ appearance: { theme: 'flat', rules: { '.Input': { backgroundColor: 'rgb(244, 245, 246)', backgroundImage: 'url(/x.png)' } } } });
        await waitFor(() => view.getComputedStyle(number).backgroundColor === 'rgb(244, 245, 246)', 'the updated rule');
        expect(view.getComputedStyle(number).backgroundImage, 'a refused value is never applied').to.equal('none');
        expect(number.value.replace(/\D/g, '')).to.equal('4242424242424242');
        expect(seen.errors).to.deep.equal([]);
      });

      it('a bad shape is config_invalid; debug warns once about refused values', async () => {
        const warnings: string[] = [];
        console.warn = (message: string) => warnings.push(message);
        // The iframe SDK checks the options in its widget page: init() brings them there.
        sdk.config({ ...CONFIG, debug: true, appearance: { theme: 'dark' } } as never);
        sdk.init();
        await waitFor(() => seen.errors.some((error) => error.code === 'config_invalid'), 'the refusal');
        expect(seen.errors.find((error) => error.code === 'config_invalid')!.message).to.contain('appearance.theme');
        sdk.config({ ...CONFIG, debug: true, appearance: { rules: { '.Label': { display: 'none', color: 'red' } } } });
        sdk.init();
        await waitFor(() => warnings.some((warning) => warning.includes('appearance-refused')), 'the warning');
        expect(warnings.find((warning) => warning.includes('appearance-refused'))).to.contain('rules[".Label"].display');
      });
    });

    describe('the paying state and the errors', () => {
      it('a card payment: paying true, then false, then the pay callback with the transaction awaiting commit', async () => {
        await start();
        await validCard();
        const transaction = await pay();
        expect(transaction).to.include({ status: 10, amountCents: 1050 });
        expect(seen.order).to.deep.equal(['paying:true', 'paying:false', 'paid']);
        expect(payments()[0]!.body).to.deep.include({ method: 'card', amount: 1050, currency: 'USD' });
      });

      it('a declined card: paying true, its error, paying false, no callback; the shopper can pay again', async () => {
        await start();
        await validCard('4000000000000002');
        expect(await refused()).to.equal('card_declined');
        await waitFor(() => seen.paying.length === 2, 'paying false');
        expect(seen.order).to.deep.equal(['paying:true', 'error:card_declined', 'paying:false']);
        await validCard();
        expect((await pay()).status).to.equal(10);
      });
    });

    describeErrorTexts({ driver, sdk: () => sdk, seen: () => seen, container: () => container, start, refused, validCard });

    describe('frameDimensions', () => {
      it('reports only real sizes: never a widget 0 px high or wide before it is drawn', async () => {
        await start();
        await waitFor(() => seen.dimensions.some((size) => size.height > 100), 'the drawn size');
        expect(
          seen.dimensions.filter((size) => size.height === 0 || size.width === 0),
          'sizes of a widget not drawn yet',
        ).to.deep.equal([]);
      });
    });
  });
}
