/**
 * createServiceFrontEndSDK over a test adapter: what the SDK asks of any widget (Elements' element, the iframe SDK's
 * iframe) and what it does with the widget's events and pay outcome. Elements' own suite covers the SDK end to end.
 */
import { expect } from '@open-wc/testing';
import type { SdkError, SdkPayOptions, Transaction } from '@svc/protocol';
import { SdkErrorException } from '../shared/sdk-errors';
import { resetWarnings } from '../shared/warnings';
import { makeTransaction } from '../testing/api-fixtures.js';
import type { WidgetAdapter, WidgetConfig, WidgetEvents } from './adapter';
import { localEngine } from './sdk-engine';
import { createServiceFrontEndSDK, type ServiceFrontEndSDK } from './service-front-end-sdk';

interface Mounted {
  container: HTMLElement;
  configs: WidgetConfig[];
  events: WidgetEvents;
  payments: { options: SdkPayOptions | undefined; resolve: (transaction: Transaction) => void; reject: (error: unknown) => void }[];
  destroyed: boolean;
}

describe('createServiceFrontEndSDK (over a test adapter)', () => {
  let mounted: Mounted[];
  let sdk: ServiceFrontEndSDK;
  let container: HTMLDivElement;
  let errors: SdkError[];
  const { warn, debug } = console;

  const adapter: WidgetAdapter = {
    mount(target, config, events) {
      const widget: Mounted = { container: target, configs: [config], events, payments: [], destroyed: false };
      mounted.push(widget);
      return {
        configure: (next) => widget.configs.push(next),
        pay: (options) => new Promise((resolve, reject) => widget.payments.push({ options, resolve, reject })),
        destroy: () => {
          widget.destroyed = true;
        },
      };
    },
  };

  beforeEach(() => {
    resetWarnings();
    console.warn = () => {};
    console.debug = () => {};
    mounted = [];
    errors = [];
    container = document.createElement('div');
    container.id = 'service-front-end';
    document.body.append(container);
    sdk = createServiceFrontEndSDK(document, { version: '9.9.9', connect: localEngine('https://pay.example', adapter) });
    sdk.error((error) => errors.push(error));
  });
  afterEach(() => {
    Object.assign(console, { warn, debug });
    sdk.destroy();
    container.remove();
  });

  it('mounts one widget into the container with the checked config, and passes a later config to it', () => {
    expect(sdk.version).to.equal('9.9.9');
    sdk.config({ mode: 'sandbox', clientId: 'ck_a' });
    sdk.init();
    expect(mounted).to.have.length(1);
    expect(mounted[0]!.container).to.equal(container);
    expect(mounted[0]!.configs).to.deep.equal([
      { apiBase: 'https://pay.example', clientId: 'ck_a', mode: 'sandbox', methodType: 'manual_capture', debug: false, locale: 'auto' },
    ]);
    sdk.config({ mode: 'production', clientId: 'ck_b', methodType: 'tokenize', debug: true, locale: 'he' });
    expect(mounted[0]!.configs[1]).to.deep.equal({
      apiBase: 'https://pay.example',
      clientId: 'ck_b',
      mode: 'production',
      methodType: 'tokenize',
      debug: true,
      locale: 'he',
    });
    sdk.init();
    expect(mounted[0]!.destroyed, 'init again replaces the widget').to.equal(true);
    expect(mounted).to.have.length(2);
  });

  it("relays the widget's events to the callbacks; a removed widget's events are ignored", () => {
    const seen: unknown[] = [];
    sdk.paying((payload) => seen.push(['paying', payload]));
    sdk.paymentSelected((payload) => seen.push(['selected', payload]));
    sdk.paymentMethodValidationStatus((payload) => seen.push(['validation', payload]));
    sdk.frameDimensions((payload) => seen.push(['dimensions', payload]));
    sdk.config({ mode: 'sandbox', clientId: 'ck_a' });
    sdk.init();
    const { events } = mounted[0]!;
    events.paymentSelected({ paymentMethod: 'card' });
    events.validationStatus({ isValid: false, errors: [{ field: 'cvc', message: 'Enter the security code.' }] });
    events.dimensions({ height: 120, width: 300 });
    events.error({ code: 'card_declined', message: 'declined' });
    sdk.init();
    events.paying({ isPaying: true });
    events.error({ code: 'network_error', message: 'late' });
    expect(seen).to.deep.equal([
      ['selected', { paymentMethod: 'card' }],
      ['validation', { isValid: false, errors: [{ field: 'cvc', message: 'Enter the security code.' }] }],
      ['dimensions', { height: 120, width: 300 }],
    ]);
    expect(errors.map((error) => error.code)).to.deep.equal(['card_declined']);
  });

  it('pay: the transaction goes to the callback; an error the widget reported is not reported twice; a defect is', async () => {
    const paid: Transaction[] = [];
    sdk.config({ mode: 'sandbox', clientId: 'ck_a' });
    sdk.init();
    const widget = mounted[0]!;
    const transaction = makeTransaction() as Transaction;
    sdk.pay((result) => paid.push(result), { amount: 1050, currency: 'USD' });
    expect(widget.payments[0]!.options).to.deep.equal({ amount: 1050, currency: 'USD' });
    widget.payments[0]!.resolve(transaction);
    sdk.pay(() => {});
    widget.payments[1]!.reject(new SdkErrorException({ code: 'card_declined', message: 'declined' }));
    sdk.pay(() => {});
    widget.payments[2]!.reject(new TypeError('boom'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(paid).to.deep.equal([transaction]);
    expect(errors.map((error) => error.code)).to.deep.equal(['internal_error']);
    expect(errors[0]!.message).to.contain('TypeError: boom');
  });

  it('destroy during a payment ends it for the merchant, and ignores what the widget settles with later', async () => {
    const paid: Transaction[] = [];
    const paying: boolean[] = [];
    sdk.paying(({ isPaying }) => paying.push(isPaying));
    sdk.config({ mode: 'sandbox', clientId: 'ck_a' });
    sdk.init();
    const widget = mounted[0]!;
    sdk.pay((result) => paid.push(result), { amount: 1050, currency: 'USD' });
    widget.events.paying({ isPaying: true });
    sdk.destroy();
    expect(widget.destroyed).to.equal(true);
    widget.payments[0]!.resolve(makeTransaction() as Transaction);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(paid).to.have.length(0);
    expect(paying).to.deep.equal([true, false]);
    expect(errors.map((error) => error.code)).to.deep.equal(['frame_unavailable']);
  });
});
