/**
 * window.ServiceFrontEndSDK of the iframe SDK (sdk-core's SDK over the iframe adapter) with its widget page on this
 * page's origin, so the tests can type into it: every public method and callback, the resizing, bad input reaching
 * `error` with a code, and no listener left behind.
 */
import { expect } from '@open-wc/testing';
import type { SdkError, Transaction } from '@svc/protocol';
import type { ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { resetWarnings } from '@svc/sdk-core/shared';
import { calls, http, HttpResponse, resetApiMock, startApiMock, worker } from '@svc/sdk-core/testing/api-mock';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { spyOnListeners } from '@svc/sdk-core/testing/listener-spy';
import { createIframeSdk } from './iframe-sdk';
import { cardShown, choose, fillCard, widgetDoc, widgetFrame } from './widget-under-test';

const CONFIG = { mode: 'sandbox', clientId: 'ck_test' } as const;
const BILLING = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  street: '12 Main Street',
  city: 'London',
  zipcode: 'N1 9GU',
  country: 'GB',
  email: 'ada@example.com',
};
const TIMEOUTS = { readyMs: 3_000 };
const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

interface Recorded {
  errors: SdkError[];
  paying: boolean[];
  selected: string[];
  validation: { isValid: boolean; errors: { field: string }[] }[];
  dimensions: { height: number; width: number }[];
  paid: Transaction[];
}

function record(sdk: ServiceFrontEndSDK): Recorded {
  const seen: Recorded = { errors: [], paying: [], selected: [], validation: [], dimensions: [], paid: [] };
  sdk.error((error) => seen.errors.push(error));
  sdk.paying(({ isPaying }) => seen.paying.push(isPaying));
  sdk.paymentSelected(({ paymentMethod }) => seen.selected.push(paymentMethod));
  sdk.paymentMethodValidationStatus((status) => seen.validation.push(status));
  sdk.frameDimensions((size) => seen.dimensions.push(size));
  return seen;
}

describe('iframe SDK', () => {
  let sdk: ServiceFrontEndSDK;
  let seen: Recorded;
  let container: HTMLDivElement;
  let logs: string[];
  let restore: () => void;

  before(() => startApiMock());
  beforeEach(() => {
    resetWarnings();
    sdk = createIframeSdk(window, location.origin, TIMEOUTS);
    seen = record(sdk);
    container = document.createElement('div');
    container.id = 'service-front-end';
    container.style.width = '420px';
    document.body.append(container);
    logs = [];
    const { warn, debug, log } = console;
    const keep = (...args: unknown[]) => logs.push(JSON.stringify(args));
    Object.assign(console, { warn: keep, debug: keep, log: keep });
    restore = () => Object.assign(console, { warn, debug, log });
  });
  afterEach(() => {
    restore();
    sdk.destroy();
    container.remove();
    document.querySelectorAll('#service-front-end-visualizer, .second-widget').forEach((node) => node.remove());
    resetApiMock();
  });

  /** config + init, then the widget's document once its card form shows; its console is recorded too. */
  async function start(options: Record<string, unknown> = {}): Promise<Document> {
    sdk.config({ ...CONFIG, ...options } as never);
    sdk.init();
    const doc = await cardShown(container);
    const widgetConsole = (doc.defaultView as Window & typeof globalThis).console;
    Object.assign(widgetConsole, {
      debug: (...args: unknown[]) => logs.push(JSON.stringify(args)),
      log: (...args: unknown[]) => logs.push(JSON.stringify(args)),
    });
    return doc;
  }

  function pay(options: Record<string, unknown> = { amount: 1050, currency: 'USD' }): Promise<Transaction> {
    return new Promise((resolve) => sdk.pay(resolve, options as never));
  }

  it('init puts one iframe titled "Payment form" in #service-front-end, made for this origin and this widget', async () => {
    sdk.config(CONFIG);
    sdk.init();
    const frame = widgetFrame(container);
    expect(container.querySelectorAll('iframe')).to.have.length(1);
    const url = new URL(frame.src);
    expect(url.pathname).to.equal('/sdk/iframe/1.0.9/widget.html');
    expect(url.searchParams.get('clientId')).to.equal('ck_test');
    expect(url.searchParams.get('origin')).to.equal(location.origin);
    const instance = new URLSearchParams(url.hash.slice(1)).get('instance');
    expect(instance).to.match(/^[0-9a-f]{24}$/);
    sdk.init();
    expect(container.querySelectorAll('iframe')).to.have.length(1);
    expect(new URL(widgetFrame(container).src).hash).to.not.contain(instance!);
    expect(sdk.version).to.equal('1.0.9');
    await cardShown(container);
    expect(seen.errors).to.deep.equal([]);
  });

  it('paymentSelected and paymentMethodValidationStatus follow the widget: the card as typed, a wallet when chosen', async () => {
    const doc = await start();
    await waitFor(() => seen.selected.length === 1, 'paymentSelected');
    expect(seen.selected).to.deep.equal(['card']);
    expect(seen.validation.at(-1)!.isValid).to.equal(false);
    fillCard(doc, '4242 4242 4242 4241');
    await waitFor(() => seen.validation.at(-1)!.errors.some((error) => error.field === 'number'), 'a number error');
    expect(seen.validation.at(-1)!.isValid).to.equal(false);
    fillCard(doc, '4242 4242 4242 4242');
    await waitFor(() => seen.validation.at(-1)!.isValid, 'a valid card');
    expect(seen.validation.at(-1)).to.deep.equal({ isValid: true, errors: [] });
    choose(doc, 'PayPal');
    await waitFor(() => seen.selected.length === 2, 'paypal selected');
    expect(seen.selected).to.deep.equal(['card', 'paypal']);
    expect(doc.getElementById('card')!.hidden).to.equal(true);
    // Card data never crosses to the page: the validation holds field names and generic messages only.
    expect(JSON.stringify(seen.validation)).to.not.contain('4242');
  });

  it('pay: paying true then false, the transaction awaiting commit, and the billing address in the payment and in no log', async () => {
    const visualizer = document.createElement('div');
    visualizer.id = 'service-front-end-visualizer';
    document.body.append(visualizer);
    const doc = await start({ debug: true, visualizer: true });
    fillCard(doc, '4242 4242 4242 4242');
    const transaction = await pay({ amount: 1050, currency: 'USD', billingAddress: BILLING });
    expect(transaction).to.include({ status: 10, statusName: 'AwaitingCommit', amountCents: 1050 });
    expect(transaction.paymentCommit.isPaymentCommitted).to.equal(false);
    // The browser view: only the merchant's backend gets what commits the payment, its token and its POS data.
    expect(transaction.paymentCommit.commitLink).to.equal(null);
    expect(transaction).to.include({ paymentDetails: null, posData: null });
    expect(seen.paying).to.deep.equal([true, false]);
    const payment = calls.find((call) => call.url.endsWith('/payments'))!;
    expect(payment.body).to.deep.include({ method: 'card', amount: 1050, currency: 'USD', billingAddress: BILLING });
    const session = calls.find((call) => call.url.endsWith('/sdk/sessions'))!;
    expect(session.body).to.deep.equal({ clientId: 'ck_test', methodType: 'manual_capture', mode: 'sandbox', embeddingOrigin: location.origin });
    expect(logs.length, 'debug mode logs').to.be.greaterThan(3);
    for (const text of [...logs, visualizer.textContent ?? '']) {
      expect(text).to.not.contain('Main Street');
      expect(text).to.not.contain('ada@example.com');
      expect(text).to.not.contain('4242 4242');
    }
    // The widget shows the outcome, and a second pay on the same widget is refused.
    expect(doc.getElementById('success')!.hidden).to.equal(false);
    sdk.pay(() => expect.fail('no second payment'), { amount: 1050, currency: 'USD' });
    await waitFor(() => seen.errors.length === 1, 'the second pay refused');
    expect(seen.errors[0]!.code).to.equal('payment_in_progress');
  });

  it('a wallet pays without card fields', async () => {
    const doc = await start();
    choose(doc, 'Google Pay');
    await waitFor(() => seen.selected.includes('googlepay'), 'google pay chosen');
    expect(doc.getElementById('wallet-note')!.textContent).to.contain('Google Pay is used when you pay');
    const transaction = await pay();
    expect(transaction.paymentMethodData.PaymentType).to.equal('googlepay');
    expect(calls.find((call) => call.url.endsWith('/payments'))!.body).to.deep.include({ method: 'googlepay', amount: 1050 });
  });

  it('a declined card reaches error with card_declined; paying goes true then false; the callback is not called', async () => {
    const doc = await start();
    fillCard(doc, '4000 0000 0000 0002');
    sdk.pay(() => expect.fail('declined'), { amount: 1050, currency: 'USD' });
    await waitFor(() => seen.paying.length === 2, 'paying true then false');
    expect(seen.paying).to.deep.equal([true, false]);
    expect(seen.errors.map((error) => error.code)).to.deep.equal(['card_declined']);
    expect(doc.getElementById('alert')!.textContent).to.contain('declined');
    // The customer can correct it and pay again.
    fillCard(doc, '4242 4242 4242 4242');
    expect((await pay()).status).to.equal(10);
  });

  it('init before config, bad pay options, pay before init, an invalid card, the network down: each an error code, nothing thrown', async () => {
    expect(() => sdk.init()).to.not.throw();
    expect(container.querySelector('iframe')).to.equal(null);
    sdk.config(CONFIG);
    expect(() => sdk.pay(() => undefined, { amount: 1050, currency: 'USD' })).to.not.throw();
    sdk.init();
    const doc = await cardShown(container);
    sdk.pay(() => undefined);
    sdk.pay(() => undefined, { amount: 10.5, currency: 'USD' });
    sdk.pay(() => undefined, { amount: 1050, currency: 'GBP' } as never);
    sdk.pay('nope' as never);
    await waitFor(() => seen.errors.length === 6, 'six errors');
    expect(seen.errors.map((error) => error.code)).to.deep.equal([
      'not_configured',
      'not_configured',
      'invalid_amount',
      'invalid_amount',
      'invalid_amount',
      'config_invalid',
    ]);
    sdk.pay(() => undefined, { amount: 1050, currency: 'USD' });
    await waitFor(() => seen.errors.length === 7, 'incomplete card');
    expect(seen.errors[6]!.code).to.equal('fields_incomplete');
    worker.use(http.post('*/sdk/sessions/:sessionId/payments', () => HttpResponse.error()));
    fillCard(doc, '4242 4242 4242 4242');
    sdk.pay(() => undefined, { amount: 1050, currency: 'USD' });
    await waitFor(() => seen.errors.length === 8, 'network error');
    expect(seen.errors[7]!.code).to.equal('network_error');
    expect(seen.paying.length, 'no payment started for the refused calls').to.equal(2);
  });

  it('the container removed during a payment: frame_unavailable and paying false; a later pay: not_configured', async () => {
    const doc = await start();
    let release = (): void => undefined;
    worker.use(
      http.post(
        '*/sdk/sessions/:sessionId/payments',
        () =>
          new Promise<Response>((resolve) => {
            release = () => resolve(HttpResponse.json({}, { status: 500 }));
          }),
      ),
    );
    fillCard(doc, '4242 4242 4242 4242');
    sdk.pay(() => expect.fail('removed'), { amount: 1050, currency: 'USD' });
    await waitFor(() => seen.paying.length === 1, 'paying');
    container.remove();
    await waitFor(() => seen.paying.length === 2, 'paying false');
    release();
    expect(seen.errors.map((error) => error.code)).to.deep.equal(['frame_unavailable']);
    sdk.pay(() => undefined, { amount: 1050, currency: 'USD' });
    await waitFor(() => seen.errors.length === 2, 'pay after removal');
    expect(seen.errors[1]!.code).to.equal('not_configured');
  });

  it('destroy twice, or during init: nothing thrown, the iframe and every listener it added are gone', async () => {
    const listeners = spyOnListeners();
    try {
      sdk.config(CONFIG);
      sdk.init();
      sdk.destroy();
      expect(() => sdk.destroy()).to.not.throw();
      expect(listeners.live(), 'destroyed during init').to.deep.equal([]);
      sdk.init();
      await cardShown(container);
      expect(listeners.live(), 'shown: the widget channel').to.include('window message');
      sdk.destroy();
      sdk.destroy();
      expect(listeners.live(), 'no listener left behind').to.deep.equal([]);
    } finally {
      listeners.restore();
    }
    expect(container.querySelector('iframe')).to.equal(null);
    expect(seen.errors).to.deep.equal([]);
  });

  it('the iframe is as tall as the widget, without scroll bars; frameDimensions fires on real changes only', async () => {
    const doc = await start();
    const frame = widgetFrame(container);
    const fits = () =>
      doc.documentElement.scrollHeight <= frame.clientHeight && Math.abs(frame.clientHeight - doc.documentElement.getBoundingClientRect().height) <= 1;
    await waitFor(fits, 'the iframe at the widget height');
    expect(frame.clientHeight).to.be.greaterThan(150);
    await waitFor(() => seen.dimensions.at(-1)?.height === frame.getBoundingClientRect().height, 'frameDimensions of the iframe');
    expect(seen.dimensions.at(-1)).to.deep.equal({ height: Math.ceil(frame.getBoundingClientRect().height), width: 420 });
    // A shorter widget (a wallet has no card fields): the iframe follows, and so does frameDimensions.
    const cardHeight = frame.clientHeight;
    choose(doc, 'PayPal');
    await waitFor(() => frame.clientHeight < cardHeight && fits(), 'a shorter iframe');
    await waitFor(() => seen.dimensions.at(-1)!.height === frame.clientHeight, 'frameDimensions after the change');
    // A narrower page: a new width.
    container.style.width = '300px';
    await waitFor(() => seen.dimensions.at(-1)!.width === 300, 'the new width');
    // Nothing changes: no event (a round trip through the widget proves its messages were handled).
    const count = seen.dimensions.length;
    container.style.width = '300px';
    choose(doc, 'Card');
    choose(doc, 'PayPal');
    await waitFor(() => seen.selected.filter((method) => method === 'paypal').length === 2, 'the round trip');
    await frames();
    await waitFor(fits, 'the iframe settled');
    const settled = seen.dimensions.length;
    await frames();
    expect(seen.dimensions.length).to.equal(settled);
    const keys = seen.dimensions.map((size) => `${size.height}x${size.width}`);
    expect(
      keys.every((key, index) => index === 0 || key !== keys[index - 1]),
      `no repeated size in ${keys.join(', ')}`,
    ).to.equal(true);
    expect(seen.dimensions.length - count, 'events while nothing changed in the end').to.be.at.most(2);
  });

  it('two widgets on one page: each gets its own events and its own payment', async () => {
    const other = createIframeSdk(window, location.origin, TIMEOUTS);
    const otherSeen = record(other);
    const second = document.createElement('div');
    second.className = 'second-widget';
    document.body.append(second);
    try {
      const doc = await start();
      other.config(CONFIG);
      other.init(second);
      const otherDoc = await cardShown(second);
      fillCard(otherDoc, '4242 4242 4242 4242');
      await waitFor(() => otherSeen.validation.at(-1)?.isValid, 'the second widget valid');
      expect(seen.validation.every((status) => !status.isValid)).to.equal(true);
      fillCard(doc, '4000 0000 0000 0002');
      sdk.pay(() => expect.fail('declined'), { amount: 1050, currency: 'USD' });
      const paid = await new Promise<Transaction>((resolve) => other.pay(resolve, { amount: 2500, currency: 'EUR' }));
      expect(paid).to.include({ amountCents: 2500, currency: 'EUR' });
      await waitFor(() => seen.errors.length === 1, 'the first widget declined');
      expect(seen.errors[0]!.code).to.equal('card_declined');
      expect(otherSeen.errors).to.deep.equal([]);
      expect(seen.paying).to.deep.equal([true, false]);
      expect(otherSeen.paying).to.deep.equal([true, false]);
    } finally {
      other.destroy();
    }
  });

  it('the widget page has no accessibility violations (axe, run inside the widget), also with errors shown', async () => {
    const doc = await start();
    const script = doc.createElement('script');
    script.src = '/sdk-iframe/node_modules/axe-core/axe.min.js'; // from the page's own origin, as its CSP allows
    await new Promise((resolve, reject) => {
      script.onload = resolve;
      script.onerror = reject;
      doc.head.append(script);
    });
    const axe = (doc.defaultView as unknown as { axe: typeof import('axe-core') }).axe;
    const violations = async () => (await axe.run(doc, { resultTypes: ['violations'] })).violations.map((violation) => `${violation.id}: ${violation.help}`);
    expect(await violations()).to.deep.equal([]);
    sdk.pay(() => undefined, { amount: 1050, currency: 'USD' });
    await waitFor(() => seen.errors.length === 1, 'the incomplete card refused');
    expect(await violations()).to.deep.equal([]);
    expect(widgetDoc(container).title).to.equal('Payment form');
  });
});
