/**
 * WidgetController over a bare host: what only the controller can show (the wallet payment's request dropped when the
 * widget goes away). Its behaviour as a whole is testing/widget-behaviour.ts, run against both widgets by their
 * packages.
 */
import { expect } from '@open-wc/testing';
import type { SdkError } from '@svc/protocol';
import type { SdkErrorException } from '../shared/sdk-errors';
import { http, resetApiMock, startApiMock, worker } from '../testing/api-mock';
import { waitFor } from '../testing/helpers';
import { WidgetController } from './widget-controller';

describe('WidgetController', () => {
  const { fetch } = window;
  let signals: AbortSignal[];
  let seen: string[];
  let controller: WidgetController;

  before(() => startApiMock());
  beforeEach(() => {
    signals = [];
    window.fetch = (input, init) => {
      if (init?.signal) signals.push(init.signal);
      return fetch(input, init);
    };
    seen = [];
    controller = new WidgetController(
      {
        requestUpdate: () => undefined,
        events: {
          ready: () => undefined,
          paymentSelected: ({ paymentMethod }) => seen.push(`selected:${paymentMethod}`),
          paying: ({ isPaying }) => seen.push(`paying:${isPaying}`),
          validationStatus: () => undefined,
          error: (error: SdkError) => seen.push(`error:${error.code}`),
          paymentSuccess: () => seen.push('paid'),
        },
        payByCard: () => Promise.reject(new Error('no card in this test')),
      },
      { name: 'test-widget', debug: () => false },
    );
  });
  afterEach(() => {
    window.fetch = fetch;
    controller.disconnect();
    resetApiMock();
  });

  it('a wallet payment is dropped when the widget goes away: its request aborted, the payment ended as frame_unavailable', async () => {
    controller.startSession({ apiBase: location.origin, clientId: 'ck_test', mode: 'sandbox', methodType: 'manual_capture' });
    await waitFor(() => controller.phase === 'ready', 'the session');
    controller.select('paypal');
    // The service never answers: only the widget going away ends this payment.
    worker.use(http.post('*/sdk/sessions/:sessionId/payments', () => new Promise<Response>(() => undefined)));
    const payment = controller.pay({ amount: 1050, currency: 'USD' });
    await waitFor(() => signals.length === 2, 'the payment request'); // the session's, then the payment's
    controller.disconnect();
    const failure = await payment.then(
      () => expect.fail('a removed widget does not pay'),
      (error: SdkErrorException) => error,
    );
    expect(failure.code).to.equal('frame_unavailable');
    expect(signals[1]!.aborted, "the payment's request is aborted").to.equal(true);
    expect(seen).to.deep.equal(['selected:card', 'selected:paypal', 'paying:true', 'error:frame_unavailable', 'paying:false']);
    expect(controller.paying).to.equal(false);
  });

  it("the error event carries a shopper error's code with the widget's text; the debug log the developer's advice", () => {
    const told: SdkError[] = [];
    const lines: unknown[][] = [];
    const { debug } = console;
    console.debug = (...args: unknown[]) => lines.push(args);
    try {
      const widget = new WidgetController(
        {
          requestUpdate: () => undefined,
          events: { ready() {}, paymentSelected() {}, paying() {}, validationStatus() {}, paymentSuccess() {}, error: (error) => told.push(error) },
          shopperText: (key) => `[fr] ${key}`,
          payByCard: () => Promise.reject(new Error('no card in this test')),
        },
        { name: 'test-widget', debug: () => true },
      );
      const advice = { code: 'card_declined', message: 'The card was declined. Ask the customer to use another card.' } as const;
      expect(widget.report(advice).error).to.deep.equal({ code: 'card_declined', message: '[fr] error.card_declined' });
      expect(widget.error, "the alert's error keeps its code").to.deep.equal(advice);
      widget.report({ code: 'amount_invalid', message: 'Pass the amount in cents.' });
      expect(told).to.deep.equal([
        { code: 'card_declined', message: '[fr] error.card_declined' },
        { code: 'amount_invalid', message: 'Pass the amount in cents.' },
      ]);
      expect(lines[0]).to.deep.equal(['[test-widget] error', advice]);
    } finally {
      console.debug = debug;
    }
  });
});
