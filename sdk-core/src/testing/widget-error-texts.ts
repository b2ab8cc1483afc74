/**
 * Part of the one suite of the widget's behaviour (widget-behaviour.ts): what an error says, and to whom. The `error`
 * callback gets the stable code and, for an error the shopper can act on, the shopper's text in the widget's language;
 * for any other error, the developer's message (English). The widget's alert never shows the developer's message: it
 * says, in the widget's language, what the shopper can act on, that payment is unavailable (a mistake of the
 * integration or a refusal of the service), or that something went wrong (a failure of the SDK or the service).
 */
import { expect } from '@open-wc/testing';
import type { PaymentMethodName, SdkError } from '@svc/protocol';
import type { ServiceFrontEndSDK } from '../host/service-front-end-sdk';
import { EN_WIDGET } from '../shared/i18n/en';
import fr from '../shared/i18n/locales/fr.json';
import he from '../shared/i18n/locales/he.json';
import { http, HttpResponse, worker } from './api-mock';
import { waitFor } from './helpers';

export interface WidgetDriver {
  /** A new `ServiceFrontEndSDK` of the SDK under test. */
  create(): ServiceFrontEndSDK;
  /** Resolves once the widget in `container` shows the card fields, ready to take a card. */
  cardShown(container: HTMLElement): Promise<void>;
  /** Types a card number (with a future expiry and a CVC) into the widget's card fields, as a shopper would. */
  fillCard(container: HTMLElement, number: string): Promise<void>;
  /** Resolves once the widget has its session and could pay (after a renewal, too). */
  ready(container: HTMLElement): Promise<void>;
  /** Clicks the radio of a payment method. */
  choose(container: HTMLElement, method: PaymentMethodName): Promise<void>;
  /** The names of the method radios the shopper sees (none when only one method is offered). */
  shownMethods(container: HTMLElement): Promise<string[]>;
  /** Whether the card fields are shown. */
  cardFieldsShown(container: HTMLElement): Promise<boolean>;
  /** The card number field, in whatever document the widget draws it. */
  cardNumber(container: HTMLElement): Promise<HTMLInputElement>;
  /** What the widget's alert (its `role="alert"` line) says now. */
  alertText(container: HTMLElement): string;
}

export interface Seen {
  /** Every callback in the order the page got them: `paying:true`, `error:card_declined`, `paid`… */
  order: string[];
  errors: SdkError[];
  paying: boolean[];
  selected: PaymentMethodName[];
  validation: { isValid: boolean; errors: { field: string }[] }[];
  dimensions: { height: number; width: number }[];
}

/** What the suite's tests share: the widget under test, what its callbacks saw, and the steps they take. */
export interface WidgetHarness {
  driver: WidgetDriver;
  sdk(): ServiceFrontEndSDK;
  seen(): Seen;
  container(): HTMLElement;
  start(options?: Record<string, unknown>): Promise<void>;
  /** A payment the test expects to be refused: the code of the error it got. */
  refused(options?: Record<string, unknown>): Promise<string>;
  validCard(number?: string): Promise<void>;
}

/** Waits until the widget speaks `catalogue`'s language (its catalogue arrives after the session): its method radios say. */
async function speaks(harness: WidgetHarness, catalogue: Record<string, string>): Promise<void> {
  for (let tries = 0; (await harness.driver.shownMethods(harness.container()))[0] !== catalogue['method.card']; tries++) {
    if (tries > 250) throw new Error(`timed out waiting for the widget to say ${catalogue['method.card']}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function describeErrorTexts(harness: WidgetHarness): void {
  const { driver, start, refused, validCard } = harness;
  const lastError = () => harness.seen().errors.at(-1)!;
  const alertText = () => driver.alertText(harness.container());

  describe('what the error callback says', () => {
    it("an error the shopper can act on carries the stable code and the shopper's text (the developer's advice goes to the debug log)", async () => {
      await start({ debug: true });
      await validCard('4000000000000002');
      expect(await refused()).to.equal('card_declined');
      expect(lastError()).to.deep.equal({ code: 'card_declined', message: EN_WIDGET['error.card_declined'] });
    });

    it("in the widget's language: a French widget's error says the French catalogue's text", async () => {
      await start({ locale: 'fr', paymentMethods: ['card', 'paypal'] });
      await speaks(harness, fr);
      expect(await refused()).to.equal('fields_incomplete');
      expect(lastError().message).to.equal(fr['error.fields_incomplete']);
    });

    it('an integration mistake keeps its message for the developer', async () => {
      await start();
      await validCard();
      expect(await refused({ amount: -5, currency: 'USD' })).to.equal('invalid_amount');
      expect(lastError().message).to.match(/amount/);
      expect(lastError().message).not.to.equal(EN_WIDGET['error.unexpected']);
    });
  });

  describe('what the alert says', () => {
    it("never the developer's English: in Hebrew, that payment is unavailable, or that something went wrong", async () => {
      await start({ locale: 'he', paymentMethods: ['card', 'paypal'] });
      await speaks(harness, he);
      expect(await refused({ amount: -5, currency: 'USD' })).to.equal('invalid_amount');
      await waitFor(() => alertText() === he['error.unavailable'], 'the alert in Hebrew');
      expect(lastError().message, 'the callback keeps the English for the developer').to.match(/amount/);
      // The service fails: internal_error.
      await driver.choose(harness.container(), 'paypal');
      await waitFor(() => harness.seen().selected.includes('paypal'), 'paypal chosen');
      worker.use(
        http.post('*/sdk/sessions/:sessionId/payments', () => HttpResponse.json({ status: 500, code: 'internal_error' }, { status: 500 }), { once: true }),
      );
      expect(await refused()).to.equal('internal_error');
      await waitFor(() => alertText() === he['error.unexpected'], 'the alert in Hebrew');
      expect(lastError().message).not.to.equal(he['error.unexpected']);
    });

    it("a widget that cannot offer a payment (no method for the client ID): that payment is unavailable, not the developer's advice", async () => {
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
      harness.sdk().config({ mode: 'sandbox', clientId: 'ck_test' });
      harness.sdk().init();
      await waitFor(() => harness.seen().errors.length === 1, 'the refusal');
      expect(lastError().code).to.equal('config_invalid');
      await waitFor(() => alertText() === EN_WIDGET['error.unavailable'], 'the alert');
    });
  });
}
