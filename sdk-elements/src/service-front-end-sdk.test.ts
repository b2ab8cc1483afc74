/** window.ServiceFrontEndSDK (sdk-core's SDK over Elements' adapter): every public method and callback, and every integration mistake reported, never thrown. */
import { expect } from '@open-wc/testing';
import type { SdkError, Transaction } from '@svc/protocol';
import type { ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { resetWarnings } from '@svc/sdk-core/shared';
import { calls, http, HttpResponse, resetApiMock, startApiMock, worker } from '@svc/sdk-core/testing/api-mock';
import { sleep, waitFor } from '@svc/sdk-core/testing/helpers';
import { spyOnListeners } from '@svc/sdk-core/testing/listener-spy';
import { frameOf, radios, ready, typeCard } from '../test/element-helpers';
import { createElementsSDK } from './adapter';
import type { SvcEcomSdkElements } from './components/svc-ecom-sdk-elements/svc-ecom-sdk-elements';

const CONFIG = { mode: 'sandbox', clientId: 'ck_test' } as const;

describe('ServiceFrontEndSDK', () => {
  let sdk: ServiceFrontEndSDK;
  let errors: SdkError[];
  let container: HTMLDivElement;
  const widget = () => container.querySelector('svc-ecom-sdk-elements') as SvcEcomSdkElements;
  const console = window.console;
  let warnings: string[];
  let debugs: unknown[][];
  let restore: () => void;

  before(() => startApiMock());
  beforeEach(() => {
    resetWarnings();
    sdk = createElementsSDK(document, location.origin);
    errors = [];
    container = document.createElement('div');
    container.id = 'service-front-end';
    document.body.append(container);
    warnings = [];
    debugs = [];
    const { warn, debug } = console;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    console.debug = (...args: unknown[]) => debugs.push(args);
    restore = () => Object.assign(console, { warn, debug });
  });
  afterEach(() => {
    restore();
    sdk.destroy();
    container.remove();
    document.querySelectorAll('#service-front-end-visualizer, #pay').forEach((node) => node.remove());
    resetApiMock();
  });

  describe('mistakes go to the error callback, never thrown', () => {
    it('config with a missing, wrong or unknown option', () => {
      sdk.error((error) => errors.push(error));
      expect(() => sdk.config({ mode: 'sandbox' } as never)).to.not.throw();
      sdk.config({ ...CONFIG, mode: 'live' } as never);
      sdk.config({ ...CONFIG, colour: 'red' } as never);
      sdk.config(undefined as never);
      sdk.config({ ...CONFIG, clientId: 'sk_secret' });
      expect(errors.map((error) => error.code)).to.deep.equal(Array(5).fill('config_invalid'));
      expect(errors[0]!.message).to.contain('clientId is missing');
      expect(errors[1]!.message).to.contain("mode must be 'sandbox' or 'production'");
      expect(errors[2]!.message).to.contain('"colour" is not a known option').and.to.contain('payButtonId');
      expect(errors[3]!.message).to.contain('needs an options object');
      expect(errors[4]!.message).to.contain('ck_');
    });

    it('keeps errors that happen before an error callback is registered, and warns about them', async () => {
      sdk.init();
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.match(/^\[ServiceFrontEndSDK\] not_configured: /);
      sdk.error((error) => errors.push(error));
      await Promise.resolve();
      expect(errors.map((error) => error.code)).to.deep.equal(['not_configured']);
    });

    it('init before config, after a failed config, and without a container', () => {
      sdk.error((error) => errors.push(error));
      sdk.init();
      sdk.config({ mode: 'sandbox' } as never);
      sdk.init();
      sdk.config(CONFIG);
      container.id = 'elsewhere';
      sdk.init();
      sdk.init('nope');
      sdk.init({} as never);
      expect(errors.map((error) => error.code)).to.deep.equal([
        'not_configured',
        'config_invalid',
        'not_configured',
        'container_not_found',
        'container_not_found',
        'container_not_found',
      ]);
      expect(errors[2]!.message).to.contain('config_invalid');
      expect(errors[3]!.message).to.contain('<div id="service-front-end">');
      expect(warnings, 'no debug: warnings only while nobody listens').to.have.length(0);
    });

    it('pay before init, pay without a callback, and callbacks that are not functions', () => {
      sdk.error((error) => errors.push(error));
      sdk.config(CONFIG);
      sdk.pay(() => {}, { amount: 100, currency: 'USD' });
      sdk.init();
      sdk.pay(undefined as never);
      sdk.paying('not a function' as never);
      expect(errors.map((error) => error.code)).to.deep.equal(['not_configured', 'config_invalid', 'config_invalid']);
    });

    it('an unknown client ID and an origin not allowed', async () => {
      sdk.error((error) => errors.push(error));
      sdk.config({ mode: 'sandbox', clientId: 'ck_unknown' });
      sdk.init();
      await waitFor(() => errors.length === 1, 'error');
      expect(errors[0]!.code).to.equal('client_id_unknown');
      sdk.config({ mode: 'sandbox', clientId: 'ck_forbidden' });
      await waitFor(() => errors.length === 2, 'second error');
      expect(errors[1]!.code).to.equal('origin_not_allowed');
    });
  });

  describe('a payment', () => {
    it('mounts into #service-front-end and reports every event through its callback', async () => {
      const seen: { name: string; payload: unknown }[] = [];
      const on = (name: string) => (payload: unknown) => seen.push({ name, payload });
      sdk.config(CONFIG);
      sdk.paymentSelected(on('paymentSelected'));
      sdk.paying(on('paying'));
      sdk.paymentMethodValidationStatus(on('validation'));
      sdk.frameDimensions(on('dimensions'));
      sdk.error(on('error'));
      sdk.init();
      expect(widget()).to.exist;
      await ready(widget());
      await typeCard(widget(), { number: '4242424242424242' });
      const transaction = await new Promise<Transaction>((resolve) => sdk.pay(resolve, { amount: 1050, currency: 'USD' }));
      expect(transaction).to.include({ status: 10, statusName: 'AwaitingCommit' });
      expect(transaction.paymentCommit.isPaymentCommitted).to.equal(false);
      // The browser view: only the merchant's backend gets what commits the payment, its token and its POS data.
      expect(transaction.paymentCommit.commitLink).to.equal(null);
      expect(transaction).to.include({ paymentDetails: null, posData: null });
      const names = seen.map((entry) => entry.name);
      expect(seen.find((entry) => entry.name === 'paymentSelected')!.payload).to.deep.equal({ paymentMethod: 'card' });
      expect(seen.filter((entry) => entry.name === 'paying').map((entry) => entry.payload)).to.deep.equal([{ isPaying: true }, { isPaying: false }]);
      expect(seen.filter((entry) => entry.name === 'validation').at(-1)!.payload).to.deep.equal({ isValid: true, errors: [] });
      const dimensions = seen.find((entry) => entry.name === 'dimensions')!.payload as { height: number; width: number };
      expect(dimensions.height).to.be.greaterThan(0);
      expect(dimensions.width).to.be.greaterThan(0);
      expect(names).to.not.include('error');
    });

    it('mounts into a given container and delivers the current dimensions to a late subscriber', async () => {
      const other = document.createElement('section');
      document.body.append(other);
      sdk.config(CONFIG);
      sdk.init(other);
      await ready(other.querySelector('svc-ecom-sdk-elements')!);
      const sizes: unknown[] = [];
      sdk.frameDimensions((size) => sizes.push(size));
      expect(sizes).to.have.length(1);
      sdk.init(other); // init again replaces the widget
      expect(other.querySelectorAll('svc-ecom-sdk-elements')).to.have.length(1);
      sdk.destroy();
      expect(other.querySelectorAll('svc-ecom-sdk-elements')).to.have.length(0);
      other.remove();
    });

    it('reports a decline and a second pay while the first runs', async () => {
      sdk.error((error) => errors.push(error));
      sdk.config(CONFIG);
      sdk.init();
      await ready(widget());
      await typeCard(widget(), { number: '4000000000000002' });
      let paid = 0;
      sdk.pay(() => (paid += 1), { amount: 1050, currency: 'USD' });
      sdk.pay(() => (paid += 1), { amount: 1050, currency: 'USD' });
      await waitFor(() => errors.length === 2, 'two errors');
      expect(errors.map((error) => error.code)).to.deep.equal(['payment_in_progress', 'card_declined']);
      expect(errors[1]!.message).to.match(/another card/);
      expect(paid).to.equal(0);
    });

    it('a click on payButtonId pays with the button’s data-amount and the last pay callback', async () => {
      const button = Object.assign(document.createElement('button'), { id: 'pay', textContent: 'Pay' });
      button.dataset['amount'] = '3300';
      button.dataset['currency'] = 'CAD';
      document.body.append(button);
      sdk.config({ ...CONFIG, payButtonId: 'pay' });
      sdk.init();
      await ready(widget());
      radios(widget())[1]!.click(); // PayPal: no typing needed
      const results: Transaction[] = [];
      sdk.pay((transaction) => results.push(transaction), { amount: 100, currency: 'USD' });
      await waitFor(() => results.length === 1, 'the pay() payment');
      widget().reset();
      await ready(widget());
      radios(widget())[1]!.click();
      button.click();
      await waitFor(() => results.length === 2, 'the button payment');
      expect(results[1]).to.include({ amountCents: 3300, currency: 'CAD' });
    });

    it('a page that calls pay in its own click handler of the pay button pays once', async () => {
      const button = Object.assign(document.createElement('button'), { id: 'pay', textContent: 'Pay' });
      document.body.append(button);
      sdk.error((error) => errors.push(error));
      sdk.config({ ...CONFIG, payButtonId: 'pay' });
      sdk.init();
      await ready(widget());
      radios(widget())[1]!.click();
      const results: Transaction[] = [];
      button.addEventListener('click', () => sdk.pay((transaction) => results.push(transaction), { amount: 700, currency: 'USD' }));
      button.click();
      await waitFor(() => results.length === 1, 'the payment');
      expect(calls.filter((call) => call.url.endsWith('/payments'))).to.have.length(1);
      expect(errors).to.have.length(0);
    });

    it('a merchant callback that throws does not break the SDK', async () => {
      const uncaught: unknown[] = [];
      const previous = window.onerror;
      window.onerror = (_message, _source, _line, _column, error) => {
        uncaught.push(error);
        return true;
      };
      try {
        sdk.config(CONFIG);
        sdk.paying(() => {
          throw new Error('merchant bug');
        });
        sdk.init();
        await ready(widget());
        radios(widget())[1]!.click();
        const transaction = await new Promise<Transaction>((resolve) => sdk.pay(resolve, { amount: 100, currency: 'USD' }));
        expect(transaction.status).to.equal(10);
        expect(uncaught.map((error) => (error as Error).message)).to.deep.equal(['merchant bug', 'merchant bug']);
      } finally {
        window.onerror = previous;
      }
    });
  });

  describe('debug and visualizer', () => {
    it('debug logs the events without card data, and warns once per code', async () => {
      sdk.error((error) => errors.push(error));
      sdk.config({ ...CONFIG, debug: true });
      sdk.init();
      await ready(widget());
      await typeCard(widget(), { number: '4242424242424242', cvc: '737' });
      await new Promise((resolve) => sdk.pay(resolve, { amount: 1050, currency: 'USD' }));
      sdk.init('missing');
      sdk.init('missing');
      const logged = JSON.stringify(debugs);
      expect(logged).to.contain('paymentSelected').and.to.contain('payment accepted');
      for (const secret of ['4242424242424242', '4242 4242', '737']) expect(logged).to.not.contain(secret);
      expect(warnings.filter((line) => line.includes('container_not_found'))).to.have.length(1);
    });

    it('visualizer writes a timestamped event log into #service-front-end-visualizer', async () => {
      const log = document.createElement('div');
      log.id = 'service-front-end-visualizer';
      document.body.append(log);
      sdk.config({ ...CONFIG, visualizer: true });
      sdk.init();
      await ready(widget());
      const items = [...log.querySelectorAll('li')];
      expect(items.map((item) => item.dataset['event'])).to.include.members(['config', 'init', 'ready', 'paymentSelected']);
      const time = items[0]!.querySelector('time')!;
      expect(Date.parse(time.dateTime)).to.be.closeTo(Date.now(), 60_000);
      expect(time.textContent).to.match(/^\d\d:\d\d:\d\d\.\d{3}$/);
    });

    it('warns when the visualizer has nowhere to go', () => {
      sdk.config({ ...CONFIG, visualizer: true });
      expect(warnings.some((line) => line.includes('visualizer-missing'))).to.equal(true);
    });
  });

  describe('destroy and init again', () => {
    it('destroy removes the widget and every listener: a click on payButtonId then pays nothing', async () => {
      const listeners = spyOnListeners();
      try {
        const button = Object.assign(document.createElement('button'), { id: 'pay', textContent: 'Pay' });
        button.dataset['amount'] = '1200';
        button.dataset['currency'] = 'USD';
        document.body.append(button);
        const paying: boolean[] = [];
        sdk.error((error) => errors.push(error));
        sdk.paying(({ isPaying }) => paying.push(isPaying));
        sdk.config({ ...CONFIG, payButtonId: 'pay' });
        sdk.init();
        const removed = widget();
        await ready(removed);
        expect(frameOf(removed)).to.exist;
        expect(listeners.live(), 'mounted: the pay button, the widget events, the card frame channel')
          .to.include('document click')
          .and.to.include('<svc-ecom-sdk-elements> svc-error')
          .and.to.include('<svc-ecom-sdk-elements> svc-paying')
          .and.to.include('window message');
        radios(removed)[1]!.click(); // PayPal: no typing needed

        button.click(); // the positive control: before destroy, a click pays
        await waitFor(() => calls.some((call) => call.url.endsWith('/payments')), 'the button payment');
        await waitFor(() => paying.length === 2, 'the end of the payment');
        expect(paying).to.deep.equal([true, false]);

        sdk.destroy();
        expect(container.children).to.have.length(0);
        expect(listeners.live([removed]), 'no listener left behind').to.deep.equal([]);
        calls.length = 0;
        button.click();
        removed.dispatchEvent(new CustomEvent('svc-paying', { detail: { isPaying: true } }));
        removed.dispatchEvent(new CustomEvent('svc-error', { detail: { code: 'internal_error', message: 'from a removed widget' } }));
        await sleep(50);
        expect(calls, 'no payment attempt').to.have.length(0);
        expect(paying).to.deep.equal([true, false]);
        expect(errors).to.deep.equal([]);
      } finally {
        listeners.restore();
      }
    });

    for (const how of ['destroy', 'init'] as const) {
      it(`${how}() during a payment ends it for the merchant: the error, then paying false`, async () => {
        const seen: string[] = [];
        let paid = 0;
        sdk.error((error) => seen.push(`error ${error.code}`));
        sdk.paying(({ isPaying }) => seen.push(`paying ${isPaying}`));
        sdk.config(CONFIG);
        sdk.init();
        await ready(widget());
        if (how === 'destroy') await typeCard(widget(), { number: '4242424242424242' });
        else radios(widget())[1]!.click(); // a wallet payment: the element aborts its own request
        let requested = false;
        worker.use(
          http.post(
            '*/payments',
            async () => {
              requested = true;
              await sleep(1000);
              return HttpResponse.error();
            },
            { once: true },
          ),
        );
        sdk.pay(() => (paid += 1), { amount: 1050, currency: 'USD' });
        await waitFor(() => requested, 'the payment request');
        expect(seen).to.deep.equal(['paying true']);
        sdk[how]();
        expect(seen).to.deep.equal(['paying true', 'error frame_unavailable', 'paying false']);
        await sleep(1200);
        expect(seen, 'nothing more from the removed widget').to.deep.equal(['paying true', 'error frame_unavailable', 'paying false']);
        expect(paid).to.equal(0);
        if (how === 'init') await ready(widget()); // the new widget works
      });
    }
  });
});
