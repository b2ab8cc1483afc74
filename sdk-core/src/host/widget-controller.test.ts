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

  it('sends the payment before announcing and drawing the paying state; a pay() from the paying listener is refused', async () => {
    const order: string[] = [];
    const { fetch: outer } = window;
    window.fetch = (input, init) => {
      if (String(input).endsWith('/payments')) order.push('request');
      return outer(input, init);
    };
    const retried: Promise<unknown>[] = [];
    const widget = new WidgetController(
      {
        requestUpdate: () => void (widget?.paying && order.push('update')),
        events: {
          ready() {},
          paymentSelected() {},
          validationStatus() {},
          error: (error: SdkError) => order.push(`error:${error.code}`),
          paymentSuccess: () => order.push('paid'),
          paying: ({ isPaying }) => {
            order.push(`paying:${isPaying}`);
            if (isPaying) retried.push(widget.pay({ amount: 1050, currency: 'USD' }).catch((error: SdkErrorException) => error.code));
          },
        },
        payByCard: () => Promise.reject(new Error('no card in this test')),
      },
      { name: 'test-widget', debug: () => false },
    );
    widget.startSession({ apiBase: location.origin, clientId: 'ck_test', mode: 'sandbox', methodType: 'manual_capture' });
    await waitFor(() => widget.phase === 'ready', 'the session');
    widget.select('paypal');
    const paid = widget.pay({ amount: 1050, currency: 'USD' });
    expect(order.slice(0, 3), 'in the same task, the request first').to.deep.equal(['request', 'update', 'paying:true']);
    await paid;
    expect(await Promise.all(retried)).to.deep.equal(['payment_in_progress']);
    expect(order.filter((entry) => entry !== 'update')).to.deep.equal(['request', 'paying:true', 'error:payment_in_progress', 'paid', 'paying:false']);
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
