/**
 * 3-D Secure and installments in the iframe SDK (docs/integrating.md#3-d-secure-and-installments-in-the-widgets), with its widget page on
 * this page's origin and the test server's fake bank (sdk-core/src/testing/fake-bank.mjs): the widget page shows the
 * bank's page in its own modal dialog (the iframe grows to hold it), `pay`'s outcome follows the transaction once it
 * leaves 15, Escape ends it as `payment_cancelled` with the cancel call made by the widget page; every text of the dialog
 * and the number of payments comes from the widget's language, axe-clean in each.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SdkError, Transaction } from '@svc/protocol';
import { LANGUAGES } from '@svc/protocol/light';
import { EN, type Catalogue, type Language } from '@svc/sdk-core/i18n';
import type { ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { calls, http, HttpResponse, resetApiMock, startApiMock, worker } from '@svc/sdk-core/testing/api-mock';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { spyOnListeners } from '@svc/sdk-core/testing/listener-spy';
import { createIframeSdk } from './iframe-sdk';
import { cardShown, widgetFrame } from './widget-under-test';

/** Fills the card fields by their ids (their labels are in the widget's language), as a paste does. */
function fillCard(doc: Document, number: string): void {
  for (const [id, value] of [
    ['number', number],
    ['expiry', '12/34'],
    ['cvc', '123'],
  ] as const) {
    const input = doc.getElementById(id) as HTMLInputElement;
    input.value = value;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
  }
}

const catalogue = async (language: Language): Promise<Catalogue> =>
  language === 'en' ? (EN as Catalogue) : ((await (await fetch(`/sdk/locales/${language}.json`)).json()) as Catalogue);

describe('iframe SDK with 3-D Secure', () => {
  let sdk: ServiceFrontEndSDK;
  let container: HTMLDivElement;
  let errors: SdkError[];

  before(() => startApiMock());
  beforeEach(() => {
    sdk = createIframeSdk(window, location.origin, { readyMs: 3_000 });
    errors = [];
    sdk.error((error) => errors.push(error));
    container = document.createElement('div');
    container.id = 'service-front-end';
    container.style.width = '420px';
    document.body.append(container);
  });
  afterEach(() => {
    sdk.destroy();
    container.remove();
    resetApiMock();
  });

  async function start(options: Record<string, unknown> = {}): Promise<Document> {
    sdk.config({ mode: 'sandbox', clientId: 'ck_test', ...options } as never);
    sdk.init();
    return cardShown(container);
  }

  /** Pays with the challenge card; resolves once the bank's page shows in the widget's dialog. */
  async function challenged(doc: Document, number = '4000 0000 0000 3220'): Promise<{ paid: Promise<Transaction> }> {
    fillCard(doc, number);
    const paid = new Promise<Transaction>((resolve) => sdk.pay(resolve, { amount: 2000, currency: 'EUR' }));
    await waitFor(() => doc.querySelector('dialog iframe') && bankButton(doc, 'Complete authentication'), "the bank's page in the dialog");
    return { paid };
  }
  const bankButton = (doc: Document, name: string) =>
    [...((doc.querySelector('dialog iframe') as HTMLIFrameElement | null)?.contentDocument?.querySelectorAll('button') ?? [])].find(
      (button) => button.textContent === name,
    ) ?? null;

  it('shows the bank in a modal dialog in the widget page, the iframe tall enough for it; completed → the transaction', async () => {
    const doc = await start();
    const before = widgetFrame(container).getBoundingClientRect().height;
    const { paid } = await challenged(doc);
    const dialog = doc.querySelector('dialog')!;
    expect(dialog.matches(':modal'), 'modal').to.equal(true);
    expect(doc.getElementById(dialog.getAttribute('aria-labelledby')!)!.textContent).to.equal(EN['auth.dialog']);
    expect(doc.activeElement === dialog.querySelector('button'), 'focus on Cancel').to.equal(true);
    await waitFor(() => widgetFrame(container).getBoundingClientRect().height > Math.max(before, 500), 'the iframe grown for the dialog');
    bankButton(doc, 'Complete authentication')!.click();
    const transaction = await paid;
    expect(transaction).to.include({ status: 10 });
    expect(doc.querySelector('dialog') === null, 'the dialog is gone').to.equal(true);
    expect(doc.body.classList.contains('authenticating')).to.equal(false);
    expect(errors).to.deep.equal([]);
  });

  it('the page grows for the dialog only once the dialog is there (no empty flash)', async () => {
    const doc = await start();
    const tokens = doc.defaultView!.DOMTokenList.prototype;
    const add = tokens.add;
    /** Whether the dialog was open each time the page was given its tall `authenticating` class. */
    const dialogOpen: boolean[] = [];
    tokens.add = function (this: DOMTokenList, ...names: string[]) {
      if (names.includes('authenticating')) dialogOpen.push(doc.querySelector('dialog')?.open === true);
      add.apply(this, names);
    };
    try {
      await challenged(doc);
    } finally {
      tokens.add = add;
    }
    expect(dialogOpen).to.deep.equal([true]);
  });

  it('a bank page it may not show: no dialog, the page not left tall, the card fields usable again', async () => {
    const doc = await start();
    worker.use(
      http.post(
        '*/payments',
        () =>
          HttpResponse.json(
            {
              status: 'requires_action',
              action: { type: 'three_d_secure', url: 'https://bank.example/authentication/auth_1' },
              transactionNumber: 'T-FOREIGN',
            },
            { status: 202 },
          ),
        { once: true },
      ),
    );
    fillCard(doc, '4242 4242 4242 4242');
    sdk.pay(() => undefined, { amount: 2000, currency: 'EUR' });
    await waitFor(() => errors.length === 1, 'the error');
    expect(errors[0]!.code).to.equal('internal_error');
    expect(doc.querySelector('dialog'), 'no dialog').to.equal(null);
    expect(doc.body.classList.contains('authenticating'), 'the page is not kept tall').to.equal(false);
    const number = doc.getElementById('number') as HTMLInputElement;
    expect(number.readOnly, 'the card fields can be changed again').to.equal(false);
    expect(doc.getElementById('card-form')!.getAttribute('aria-busy')).to.equal('false');
  });

  it('failed at the bank: error authentication_failed, the callback not called', async () => {
    const doc = await start();
    await challenged(doc);
    bankButton(doc, 'Fail authentication')!.click();
    await waitFor(() => errors.length === 1, 'the error');
    expect(errors[0]!.code).to.equal('authentication_failed');
    expect(doc.getElementById('alert')!.textContent).to.equal(EN['error.authentication_failed']);
    expect(doc.querySelector('dialog') === null, 'the dialog is gone').to.equal(true);
  });

  it('Escape: the widget page cancels the authentication with its session token; error payment_cancelled', async () => {
    const doc = await start();
    await challenged(doc);
    (doc.querySelector('dialog button') as HTMLButtonElement).focus();
    await sendKeys({ press: 'Escape' });
    await waitFor(() => errors.length === 1, 'the error');
    expect(errors[0]!.code).to.equal('payment_cancelled');
    const cancel = calls.find((call) => call.url.endsWith('/cancel'))!;
    expect(cancel.authorization).to.match(/^Bearer tok_/);
    expect(doc.querySelector('dialog') === null, 'the dialog is gone').to.equal(true);
  });

  it('destroyed during the challenge: the dialog, the bank page and every listener go with the widget', async () => {
    const listeners = spyOnListeners();
    try {
      const doc = await start();
      await challenged(doc);
      const dialog = doc.querySelector('dialog')!;
      const bankPage = dialog.querySelector('iframe')!.contentWindow;
      expect(dialog.open && bankPage !== null, 'the challenge is on show').to.equal(true);
      expect(listeners.live(), 'the widget channel').to.include('window message');
      sdk.destroy();
      expect(container.querySelector('iframe'), 'the widget is gone').to.equal(null);
      expect(doc.defaultView, "the widget page's window, and the dialog in it, are gone").to.equal(null);
      expect(bankPage!.closed, "the bank's page is gone").to.equal(true);
      expect(listeners.live(), 'no listener left behind in the page').to.deep.equal([]);
    } finally {
      listeners.restore();
    }
  });

  it('offers the number of payments when the session allows it, and sends the one chosen', async () => {
    const doc = await start({ maxInstallments: 6 });
    const select = await waitFor(() => doc.querySelector<HTMLSelectElement>('#installments'), 'the number of payments');
    expect(select.labels![0]!.textContent).to.equal(EN['card.installments.label']);
    expect(select.options).to.have.length(6);
    select.value = '4';
    fillCard(doc, '4242 4242 4242 4242');
    await new Promise<Transaction>((resolve) => sdk.pay(resolve, { amount: 2000, currency: 'ILS' }));
    expect(calls.find((call) => call.url.endsWith('/payments'))!.body).to.deep.include({ installments: 4 });
  });

  for (const language of LANGUAGES) {
    it(`${language}: the dialog and the number of payments in the catalogue's words, axe-clean`, async () => {
      const texts = await catalogue(language);
      const doc = await start({ maxInstallments: 6, locale: language });
      await waitFor(() => doc.documentElement.lang === language, `the widget speaks ${language}`);
      const select = await waitFor(() => doc.querySelector<HTMLSelectElement>('#installments'), 'the number of payments');
      expect(select.labels![0]!.textContent).to.equal(texts['card.installments.label']);
      await challenged(doc);
      const dialog = doc.querySelector('dialog')!;
      expect(dialog.lang).to.equal(language);
      expect(doc.getElementById(dialog.getAttribute('aria-labelledby')!)!.textContent).to.equal(texts['auth.dialog']);
      expect(doc.getElementById(dialog.getAttribute('aria-describedby')!)!.textContent).to.equal(texts['auth.intro']);
      expect(dialog.querySelector('iframe')!.title).to.equal(texts['auth.frame']);
      expect(dialog.querySelector('button')!.textContent).to.equal(texts['auth.cancel']);
      const script = doc.createElement('script');
      script.src = '/sdk-iframe/node_modules/axe-core/axe.min.js';
      await new Promise((resolve, reject) => {
        script.onload = resolve;
        script.onerror = reject;
        doc.head.append(script);
      });
      const axe = (doc.defaultView as unknown as { axe: typeof import('axe-core') }).axe;
      const { violations } = await axe.run(doc, { resultTypes: ['violations'] });
      expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).to.deep.equal([]);
      (dialog.querySelector('button') as HTMLButtonElement).click();
      await waitFor(() => errors.length === 1, 'cancelled');
      expect(doc.getElementById('alert')!.textContent).to.equal(texts['error.payment_cancelled']);
    });
  }
});
