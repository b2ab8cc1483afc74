import { expect } from '@open-wc/testing';
import { calls, resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { button, mountReady, press, waitFor } from '../../test/express-helpers';
import { canPayInBrowser, PAYMENT_METHOD_IDS } from './browser-wallets';

/** A stand-in for the browser's PaymentRequest: which methods it can pay with, and what show() does. */
function fakePaymentRequest(options: { canPay?: string[]; canMakeError?: string; show?: 'approve' | 'abort' } = {}) {
  const log = { created: [] as { methods: string[]; total: unknown }[], showActive: [] as boolean[], completed: [] as string[] };
  class FakePaymentRequest {
    readonly #method: string;
    constructor(methods: { supportedMethods: string }[], details: { total: unknown }) {
      this.#method = methods[0]!.supportedMethods;
      log.created.push({ methods: methods.map((method) => method.supportedMethods), total: details.total });
    }
    async canMakePayment(): Promise<boolean> {
      if (options.canMakeError) throw new DOMException('not here', options.canMakeError);
      return (options.canPay ?? []).includes(this.#method);
    }
    show(): Promise<unknown> {
      log.showActive.push(navigator.userActivation.isActive);
      if (options.show === 'abort') return Promise.reject(new DOMException('closed', 'AbortError'));
      return Promise.resolve({
        payerName: 'Wallet Person',
        payerEmail: 'wallet.person@example.com',
        shippingAddress: {
          recipient: 'Wallet Person',
          addressLine: ['2 Device Street', 'Floor 3'],
          city: 'Mountain View',
          region: 'CA',
          postalCode: '94043',
          country: 'US',
        },
        complete: async (result: string) => {
          log.completed.push(result);
        },
      });
    }
  }
  return { FakePaymentRequest: FakePaymentRequest as unknown as typeof PaymentRequest, log };
}

const applePaySession = (canMake: boolean) => ({ canMakePayments: () => canMake });
const scope = (globals: Record<string, unknown>) => globals as unknown as typeof globalThis;
const REQUEST = { amountCents: 1050, currency: 'USD', label: 'Total' };

describe('browser wallets (production)', () => {
  describe('canPayInBrowser', () => {
    it('none: no Payment Request API and no ApplePaySession', async () => {
      expect(await canPayInBrowser({ ...REQUEST, method: 'googlepay' }, scope({}))).to.deep.equal({ canPay: false, reason: 'browser_unsupported' });
      expect(await canPayInBrowser({ ...REQUEST, method: 'applepay' }, scope({}))).to.deep.equal({ canPay: false, reason: 'browser_unsupported' });
    });

    it('one: the browser can pay with Google Pay only', async () => {
      const { FakePaymentRequest, log } = fakePaymentRequest({ canPay: [PAYMENT_METHOD_IDS.googlepay] });
      expect(await canPayInBrowser({ ...REQUEST, method: 'googlepay' }, scope({ PaymentRequest: FakePaymentRequest }))).to.deep.equal({ canPay: true });
      expect(await canPayInBrowser({ ...REQUEST, method: 'applepay' }, scope({ PaymentRequest: FakePaymentRequest }))).to.deep.equal({
        canPay: false,
        reason: 'no_wallet_setup',
      });
      expect(log.created[0]).to.deep.equal({ methods: ['https://google.com/pay'], total: { label: 'Total', amount: { currency: 'USD', value: '10.50' } } });
    });

    it('both: ApplePaySession and the Payment Request API say yes', async () => {
      const { FakePaymentRequest } = fakePaymentRequest({ canPay: Object.values(PAYMENT_METHOD_IDS) });
      const globals = scope({ PaymentRequest: FakePaymentRequest, ApplePaySession: applePaySession(true) });
      expect(await canPayInBrowser({ ...REQUEST, method: 'applepay' }, globals)).to.deep.equal({ canPay: true });
      expect(await canPayInBrowser({ ...REQUEST, method: 'googlepay' }, globals)).to.deep.equal({ canPay: true });
    });

    it('ApplePaySession without a card set up: no_wallet_setup', async () => {
      const { FakePaymentRequest } = fakePaymentRequest({ canPay: Object.values(PAYMENT_METHOD_IDS) });
      expect(
        await canPayInBrowser({ ...REQUEST, method: 'applepay' }, scope({ PaymentRequest: FakePaymentRequest, ApplePaySession: applePaySession(false) })),
      ).to.deep.equal({ canPay: false, reason: 'no_wallet_setup' });
    });

    it('a NotAllowedError (a frame without the payment permission): not_allowed', async () => {
      const { FakePaymentRequest } = fakePaymentRequest({ canMakeError: 'NotAllowedError' });
      expect(await canPayInBrowser({ ...REQUEST, method: 'googlepay' }, scope({ PaymentRequest: FakePaymentRequest }))).to.deep.equal({
        canPay: false,
        reason: 'not_allowed',
      });
    });
  });

  describe('the element in production', () => {
    const original = { PaymentRequest: window.PaymentRequest, ApplePaySession: (window as { ApplePaySession?: unknown }).ApplePaySession };
    const install = (globals: { PaymentRequest?: typeof PaymentRequest; ApplePaySession?: unknown }) => {
      Object.assign(window, { PaymentRequest: globals.PaymentRequest, ApplePaySession: globals.ApplePaySession });
    };
    before(() => startApiMock());
    afterEach(() => {
      document.querySelectorAll('svc-ecom-sdk-express').forEach((node) => node.remove());
      Object.assign(window, original);
      resetApiMock();
    });

    it('shows only what the browser offers; PayPal has no browser wallet; onReady says why', async () => {
      const { FakePaymentRequest } = fakePaymentRequest({ canPay: [PAYMENT_METHOD_IDS.googlepay] });
      install({ PaymentRequest: FakePaymentRequest, ApplePaySession: undefined });
      const { element, seen } = await mountReady({ mode: 'production' });
      expect(seen.ready).to.deep.equal([
        { paypal: { canPay: false, reason: 'method_not_offered' }, applepay: { canPay: false, reason: 'no_wallet_setup' }, googlepay: { canPay: true } },
      ]);
      for (const method of ['paypal', 'applepay'] as const) {
        expect(button(element, method).dataset['canPay']).to.equal('false');
        expect(button(element, method).hidden).to.equal(true);
      }
      expect(button(element, 'googlepay').hidden).to.equal(false);
      expect(element.shadowRoot!.querySelector('dialog')).to.equal(null);
    });

    it("opens the browser's sheet inside the click's user activation, pays with what the wallet returned, and completes it", async () => {
      const { FakePaymentRequest, log } = fakePaymentRequest({ canPay: Object.values(PAYMENT_METHOD_IDS) });
      install({ PaymentRequest: FakePaymentRequest, ApplePaySession: applePaySession(true) });
      const { element, seen } = await mountReady({ mode: 'production', amount: '25.00' });
      expect(seen.ready[0]!.applepay).to.deep.equal({ canPay: true });
      await press(element, 'applepay');
      await waitFor(() => seen.pay.length === 1, 'onPay');
      expect(log.showActive).to.deep.equal([true]);
      expect(log.completed).to.deep.equal(['success']);
      const payment = calls.find((call) => call.url.endsWith('/payments'))!;
      expect(payment.body).to.deep.include({ method: 'applepay', amount: 2500, currency: 'USD' });
      expect(seen.pay[0]!.shippingInformation).to.deep.equal({
        fullName: 'Wallet Person',
        firstName: 'Wallet',
        lastName: 'Person',
        addressLine1: '2 Device Street',
        addressLine2: 'Floor 3',
        city: 'Mountain View',
        state: 'CA',
        postalCode: '94043',
        country: 'US',
        email: 'wallet.person@example.com',
      });
      expect(seen.pay[0]!.billingInformation).to.deep.include({ fullName: 'Wallet Person', email: 'wallet.person@example.com' });
    });

    it('a sheet the consumer closes: payment_cancelled, nothing sent, buttons idle', async () => {
      const { FakePaymentRequest } = fakePaymentRequest({ canPay: [PAYMENT_METHOD_IDS.googlepay], show: 'abort' });
      install({ PaymentRequest: FakePaymentRequest });
      const { element, seen } = await mountReady({ mode: 'production' });
      await press(element, 'googlepay');
      await waitFor(() => seen.error.length === 1, 'onError');
      expect(seen.error[0]!.code).to.equal('payment_cancelled');
      expect(calls.filter((call) => call.url.endsWith('/payments'))).to.have.length(0);
      await element.updateComplete;
      expect(button(element, 'googlepay').hasAttribute('data-processing')).to.equal(false);
    });
  });
});
