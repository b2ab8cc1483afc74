import { LANGUAGES, Status, type PaymentLinkState, type TerminalCurrent } from '@svc/protocol';
import { directionOf, fill } from '@svc/sdk-core/i18n';
import { describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../../test/app';
import { addBranch } from '../../test/fixtures';
import { useTestApp } from '../../test/harness';
import { CATALOGUES } from '../../i18n';
import { escapeHtml } from '../consumer-pages';
import { REFUSAL_TEXTS, STATUS_TEXTS } from './assets/terminal-texts';

const t = useTestApp({ merchantName: 'Kiosk' });

async function asDevice<T>(method: 'GET' | 'POST', path: string, body?: unknown, deviceId = t.merchant.deviceId) {
  const res = await t.app.request(path, { method, headers: bearer(deviceId), body });
  return { status: res.status, body: (await res.json()) as T };
}
const current = (deviceId?: string) => asDevice<TerminalCurrent>('GET', '/sandbox/terminal/current', undefined, deviceId);
const tap = (body: Record<string, string>, deviceId?: string) =>
  asDevice<PaymentLinkState & { code?: string }>('POST', '/sandbox/terminal/tap', body, deviceId);
const forDevice = () => t.client.init({ amount: 7.25, currency: 'EUR', deviceId: t.merchant.deviceId });

describe('the sandbox terminal simulator', () => {
  it('serves its page with a button per test card and wallet, and a consumer cancel', async () => {
    const res = await t.app.request('/sandbox/terminal');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await res.text();
    for (const name of [
      'Tap 4242 4242 4242 4242',
      'Tap 5555 5555 5555 4444',
      'Tap 4000 0000 0000 0002',
      'Tap 4000 0000 0000 9995',
      'Tap 4000 0000 0000 0119',
      'Tap PayPal',
      'Tap Apple Pay',
      'Tap Google Pay',
      'Cancel as the consumer',
    ]) {
      expect(html).toMatch(new RegExp(`<button type="button"[^>]*>${name}</button>`));
    }
    expect(html).toContain('<script src="/pay-assets/terminal.js" defer></script>');
    expect(/<html[^>]*>/.exec(html)![0]).toBe('<html lang="en" dir="ltr">');
  });

  describe('in the language of the hosted page’s choice (?lang=, Accept-Language, en)', () => {
    const page = async (path: string, headers: Record<string, string> = {}) => (await t.app.request(path, { headers })).text();
    const htmlTag = (html: string) => /<html[^>]*>/.exec(html)![0];
    /** The page's `data-texts`, the texts its script writes. */
    const scriptTexts = (html: string) =>
      JSON.parse(
        /data-texts="([^"]*)"/
          .exec(html)![1]!
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&amp;/g, '&'),
      ) as Record<string, string>;

    for (const language of LANGUAGES) {
      it(`${language}: every text from the ${language} catalogue, with <html lang dir> and the switch`, async () => {
        const texts = Object.fromEntries(Object.entries(CATALOGUES[language]).map(([key, text]) => [key, escapeHtml(text)])) as typeof CATALOGUES.en;
        const html = await page(`/sandbox/terminal?lang=${language}`);
        expect(htmlTag(html)).toBe(`<html lang="${language}" dir="${directionOf(language)}">`);
        expect(html).toContain(`<h1>${texts['terminal.heading']}</h1>`);
        expect(html).toContain(`<label for="device-id">${texts['terminal.deviceId']}</label>`);
        expect(html).toContain(`>${fill(texts['terminal.tap'], { name: '4242 4242 4242 4242' })}</button>`);
        expect(html).toContain(`>${fill(texts['terminal.tap'], { name: 'PayPal' })}</button>`);
        expect(html).toContain(`>${texts['terminal.cancel']}</button>`);
        expect(html).toContain('<nav class="languages"');
        expect(html).toContain(`href="?lang=${language}" lang="${language}" hreflang="${language}" aria-current="true"`);
        expect(scriptTexts(html)['terminal.connected']).toBe(CATALOGUES[language]['terminal.connected']);
        // The script writes statuses and refusals in the page's language too, never the English status names.
        for (const key of [...Object.values(STATUS_TEXTS), ...Object.values(REFUSAL_TEXTS)])
          expect(scriptTexts(html)[key], key).toBe(CATALOGUES[language][key]);
        // Nothing English is left on a page in another language (the names of cards and wallets aside).
        if (language !== 'en') expect(html).not.toMatch(/>Tap |Terminal simulator|Device ID|Connect</);
      });
    }

    it('says each button and the business as its language does: de "vorhalten", he "לבית העסק" without a maqaf', async () => {
      expect(await page('/sandbox/terminal?lang=de')).toContain('>4242 4242 4242 4242 vorhalten</button>');
      const he = scriptTexts(await page('/sandbox/terminal?lang=he'));
      expect(fill(he['terminal.paymentTo']!, { business: 'Kiosk' })).toBe('תשלום לבית העסק Kiosk');
    });

    it('Accept-Language when there is no ?lang=, and en for a language the service does not speak', async () => {
      expect(htmlTag(await page('/sandbox/terminal', { 'accept-language': 'ja, ru-RU;q=0.8, en;q=0.1' }))).toBe('<html lang="ru" dir="ltr">');
      expect(htmlTag(await page('/sandbox/terminal?lang=he', { 'accept-language': 'ru' }))).toBe('<html lang="he" dir="rtl">');
      expect(htmlTag(await page('/sandbox/terminal?lang=xx', { 'accept-language': 'ja' }))).toBe('<html lang="en" dir="ltr">');
    });
  });

  it("shows the device's newest pending transaction; a declined tap may be followed by a good one", async () => {
    expect((await current()).body).toEqual({ transaction: null });
    const created = await forDevice();
    const shown = (await current()).body.transaction!;
    expect(shown).toMatchObject({
      TransactionNumber: created.body.TransactionNumber,
      amountCents: 725,
      currency: 'EUR',
      businessName: 'Kiosk',
      status: Status.Pending,
    });

    const declined = await tap({ method: 'card', cardNumber: '4000000000000002', transactionNumber: created.body.TransactionNumber });
    expect(declined.status).toBe(402);
    expect(declined.body.code).toBe('card_declined');
    // Still on the screen after the decline, for another card.
    expect((await current()).body.transaction).toMatchObject({ TransactionNumber: created.body.TransactionNumber, status: Status.Declined, payable: true });
    const approved = await tap({ method: 'card', cardNumber: '4242424242424242', transactionNumber: created.body.TransactionNumber });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: Status.Approved, lastFourDigits: '4242', payable: false });
    expect((await t.client.get(created.body.TransactionNumber)).body).toMatchObject({ status: Status.Approved, paymentMethodData: { PaymentType: 'card' } });
    expect((await current()).body.transaction).toBeNull();
  });

  it('taps a wallet, and cancels as the consumer', async () => {
    const paid = await forDevice();
    expect((await tap({ method: 'applepay', transactionNumber: paid.body.TransactionNumber })).body).toMatchObject({ status: Status.Approved });
    expect((await t.client.get(paid.body.TransactionNumber)).body.paymentMethodData.PaymentType).toBe('applepay');

    const cancelled = await forDevice();
    const res = await asDevice<PaymentLinkState>('POST', '/sandbox/terminal/cancel', { transactionNumber: cancelled.body.TransactionNumber });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: Status.Cancelled, statusName: 'Cancelled' });
    const again = await asDevice<{ code: string }>('POST', '/sandbox/terminal/cancel', { transactionNumber: cancelled.body.TransactionNumber });
    expect(again.body.code).toBe('transaction_not_cancellable');
  });

  it("acts only on its own device's transactions, only with a device ID, and only on test cards", async () => {
    const created = await forDevice();
    const other = await addBranch(t.database.db, t.merchant.merchantId);
    expect((await tap({ method: 'paypal', transactionNumber: created.body.TransactionNumber }, other.deviceId)).status).toBe(404);
    expect((await current(other.deviceId)).body).toEqual({ transaction: null });
    expect((await current('dev_unknown_device_id')).status).toBe(401);
    expect((await current(t.merchant.apiKey)).status).toBe(403);
    const notATestCard = await tap({ method: 'card', cardNumber: '4111111111111111', transactionNumber: created.body.TransactionNumber });
    expect(notATestCard.status).toBe(400);
    expect((await t.client.get(created.body.TransactionNumber)).body.status).toBe(Status.Pending);
    await t.client.cancel(created.body.TransactionNumber);
  });

  it('does not exist in production', async () => {
    const production = await startTestApp(t.database, {
      env: { SVC_MODE: 'production', PUBLIC_BASE_URL: 'https://pay.example.com' },
      clock: { now: () => new Date() },
    });
    try {
      expect((await production.request('/sandbox/terminal')).status).toBe(404);
      expect((await production.request('/sandbox/terminal/current', { headers: bearer(t.merchant.deviceId) })).status).toBe(404);
      expect(
        (await production.request('/sandbox/terminal/tap', { headers: bearer(t.merchant.deviceId), body: { method: 'paypal', transactionNumber: 'X' } }))
          .status,
      ).toBe(404);
    } finally {
      await production.close();
    }
  });
});
