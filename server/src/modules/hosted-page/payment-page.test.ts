import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { LANGUAGES, Status, type Transaction } from '@svc/protocol';
import { directionOf } from '@svc/sdk-core/i18n';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../env';
import { escapeHtml } from '../../html-escape';
import { CATALOGUES } from '../../i18n';
import { useTestApp } from '../../test/harness';
import { cardNumbered, consumerPays, TEST_CARD } from '../../test/merchant-client';
import { SandboxClock } from '../sandbox/sandbox-clock';

const t = useTestApp({ merchantName: 'Café <Lumière>' });
/** The default authorization hold (env AUTHORIZATION_HOLD_S, docs/operating.md#configuration): 7 days. */
const AUTHORIZATION_HOLD_S = 7 * 24 * 3600;

const pathOf = (transaction: Pick<Transaction, 'transactionPage'>) => new URL(transaction.transactionPage.qrURL).pathname;
async function page(path: string, headers: Record<string, string> = {}) {
  const res = await t.app.request(path, { headers });
  return { res, html: await res.text() };
}
const heading = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
const hasForm = (html: string) => html.includes('id="pay-button"') || html.includes('id="card-form"');

describe('GET /pay/:linkId (the hosted payment page)', () => {
  describe('in the consumer’s language', () => {
    const htmlTag = (html: string) => /<html[^>]*>/.exec(html)![0];

    it('speaks Russian from Accept-Language: headings, amount, labels and the pay button', async () => {
      const created = await t.client.init({ amount: 1234.5, currency: 'RUB' });
      const { html } = await page(pathOf(created.body), { 'accept-language': 'ja;q=0.9, ru-RU;q=0.8, en;q=0.1' });
      expect(htmlTag(html)).toBe('<html lang="ru" dir="ltr">');
      expect(html).toContain('Ожидаем оплату');
      expect(html).toMatch(/<p class="amount">1\s234,50\s₽<\/p>/);
      expect(html).toContain('<button type="button" id="pay-button" disabled>Оплатить 1\u00a0234,50 RUB</button>');
      expect(html).toContain('>Номер карты</label>');
      expect(html).toContain('aria-label="Данные карты"');
    });

    it('?lang= comes first, then the transaction’s language, then the browser’s; an unsupported ?lang= is skipped', async () => {
      const created = await t.client.init({ amount: 12.5, currency: 'ILS', language: 'he' });
      const path = pathOf(created.body);
      const he = (await page(path, { 'accept-language': 'fr' })).html;
      expect(htmlTag(he)).toBe('<html lang="he" dir="rtl">');
      expect(he).toContain('>מספר כרטיס</label>');
      expect(he).toContain('dir="ltr" inputmode="numeric" autocomplete="cc-number"');
      expect(htmlTag((await page(`${path}?lang=de`, { 'accept-language': 'fr' })).html)).toBe('<html lang="de" dir="ltr">');
      expect(htmlTag((await page(`${path}?lang=xx`, { 'accept-language': 'fr' })).html)).toBe('<html lang="he" dir="rtl">');
      const plain = await t.client.init({ amount: 12.5, currency: 'USD' });
      expect(htmlTag((await page(pathOf(plain.body), { 'accept-language': 'xx, es;q=0.5' })).html)).toBe('<html lang="es" dir="ltr">');
      expect(htmlTag((await page(pathOf(plain.body))).html)).toBe('<html lang="en" dir="ltr">');
    });

    it('offers a switch: a link per language, named in that language, the current one marked', async () => {
      const created = await t.client.init({ amount: 12.5, currency: 'USD' });
      const { html } = await page(`${pathOf(created.body)}?lang=ar`);
      expect(html).toContain('<nav class="languages" aria-label="اللغة">');
      expect(html).toContain('<a href="?lang=ar" lang="ar" hreflang="ar" aria-current="true">العربية</a>');
      expect(html).toContain('<a href="?lang=en" lang="en" hreflang="en">English</a>');
      expect([...html.matchAll(/<a href="\?lang=/g)]).toHaveLength(7);
    });
  });

  it('is served with the headers of a page no one may frame, cache or index, and nothing inline', async () => {
    const created = await t.client.init({ amount: 12.5, currency: 'USD' });
    const { res, html } = await page(pathOf(created.body));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain(`connect-src 'self' ${t.app.env.PUBLIC_BASE_URL.replace('http', 'ws')}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    // One script, a file of the service; its built style sheet inline (no request before the first paint), allowed by
    // its hash and nothing else inline: no other style, no inline script or handler.
    expect([...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual(['<script src="/pay-assets/pay.js" defer>']);
    expect(html).not.toMatch(/<link\b/);
    const styles = [...html.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toEqual([readFileSync(path.join(REPO_ROOT, 'server/dist/pages/pages.css'), 'utf8')]);
    expect(csp).toContain(`style-src 'self' 'sha256-${createHash('sha256').update(styles[0]!).digest('base64')}';`);
    expect(html.replace(/<style>[^<]*<\/style>/, '')).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });

  it('shows the business, amount, currency, products and status, with the card fields, wallets and pay button', async () => {
    const created = await t.client.init({
      amount: 12.5,
      currency: 'USD',
      posData: { till: 'secret-till-7' },
      products: [
        { name: 'Tea & cake', quantity: 2, amount: 5 },
        { name: 'Water', quantity: 1, amount: 2.5 },
      ],
    });
    const { html } = await page(pathOf(created.body));
    expect(heading(html)).toBe('Café &lt;Lumière&gt;');
    expect(html).toContain('<p class="amount">$12.50</p>');
    expect(html).toContain('Waiting for your payment');
    expect(html).toMatch(/<td>Tea &amp; cake<\/td><td class="num">2<\/td><td class="num">10.00<\/td>/);
    expect(html).toContain('<button type="button" id="pay-button" disabled>Pay 12.50 USD</button>');
    for (const label of ['Card', 'PayPal', 'Apple Pay', 'Google Pay'])
      expect(html).toMatch(new RegExp(`<input type="radio" name="method" value="\\w+"( checked)?> ${label}</label>`));
    for (const label of ['Card number', 'Expiry date (MM/YY)', 'Security code (CVC)']) expect(html).toContain(`>${label}</label>`);
    expect(html).toContain(`data-transaction="${created.body.TransactionNumber}"`);
    expect(html).not.toContain('secret-till-7');
    expect(html).not.toContain(t.merchant.apiKey);
    expect(html).not.toMatch(/posData|auth_|tok_/);
  });

  it('counts down to timeoutDate by the service clock', async () => {
    const created = await t.client.init({ amount: 1, currency: 'USD', timeOut: 125 });
    const { html } = await page(pathOf(created.body));
    expect(html).toMatch(/data-seconds-left="12[45]"/);
    expect(html).toMatch(/Time left to pay: <span id="countdown-value">2:0[45]<\/span>/);
  });

  it('after the payment: "Payment approved" with the amount, business, confirmation number and last four digits, and no form', async () => {
    const created = await t.client.init({ amount: 12.5, currency: 'USD' });
    expect((await consumerPays(t.app, created.body, TEST_CARD)).status).toBe(200);
    const paid = (await t.client.get(created.body.TransactionNumber)).body;
    const { html } = await page(pathOf(created.body));
    expect(heading(html)).toBe('Payment approved');
    expect(html).toContain('<dt>Amount</dt><dd>$12.50</dd>');
    expect(html).toContain('<dt>Paid to</dt><dd>Café &lt;Lumière&gt;</dd>');
    expect(html).toContain(`<dt>Confirmation number</dt><dd>${paid.confirmation!.confirmationNumber}</dd>`);
    expect(html).toContain('<dt>Card</dt><dd>ending in 4242</dd>');
    expect(hasForm(html)).toBe(false);
  });

  it('a declined card: "Payment declined" with the form to try again; a failure: "Payment failed" without one', async () => {
    const declined = await t.client.init({ amount: 3, currency: 'USD' });
    expect((await consumerPays(t.app, declined.body, cardNumbered('4000000000000002'))).status).toBe(402);
    const afterDecline = await page(pathOf(declined.body));
    expect(heading(afterDecline.html)).toBe('Payment declined');
    expect(afterDecline.html).toContain('<h2>Try again</h2>');
    expect(afterDecline.html).toContain('Pay 3.00 USD</button>');

    const failed = await t.client.init({ amount: 3, currency: 'USD' });
    expect((await consumerPays(t.app, failed.body, cardNumbered('4000000000000119'))).status).toBe(502);
    const afterFailure = await page(pathOf(failed.body));
    expect(heading(afterFailure.html)).toBe('Payment failed');
    expect(hasForm(afterFailure.html)).toBe(false);
  });

  it('cancelled and timed-out links say so and never show a form (timed out before the sweep too)', async () => {
    const cancelled = await t.client.init({ amount: 3, currency: 'USD' });
    await t.client.cancel(cancelled.body.TransactionNumber);
    const afterCancel = await page(pathOf(cancelled.body));
    expect(heading(afterCancel.html)).toBe('Payment cancelled');
    expect(hasForm(afterCancel.html)).toBe(false);

    const unswept = await t.client.init({ amount: 3, currency: 'USD', timeOut: 30 });
    const swept = await t.client.init({ amount: 3, currency: 'USD', timeOut: 30 });
    await t.database.db.transaction((tx) => new SandboxClock(t.database.db).advance(31, tx));
    await (t.app.clock as SandboxClock).refresh();
    const beforeSweep = await page(pathOf(unswept.body));
    expect((await t.client.get(unswept.body.TransactionNumber)).body.status).toBe(Status.Pending);
    expect(heading(beforeSweep.html)).toBe('Payment timed out');
    expect(hasForm(beforeSweep.html)).toBe(false);
    await t.client.advanceClock(1); // sweeps
    expect((await t.client.get(swept.body.TransactionNumber)).body.status).toBe(Status.TimedOut);
    expect(heading((await page(pathOf(swept.body))).html)).toBe('Payment timed out');
  });

  it('an authorization whose hold ran out: "Payment expired", saying the hold was released, and no form', async () => {
    const created = await t.client.init({ amount: 4, currency: 'USD', methodType: 'authorize' });
    expect((await consumerPays(t.app, created.body, TEST_CARD)).status).toBe(200);
    expect(heading((await page(pathOf(created.body))).html)).toBe('Payment approved');
    await t.client.advanceClock(AUTHORIZATION_HOLD_S + 1); // the expiry sweep runs with the clock
    expect((await t.client.get(created.body.TransactionNumber)).body.status).toBe(Status.Expired);
    const { res, html } = await page(pathOf(created.body));
    expect(res.status).toBe(200);
    expect(heading(html)).toBe('Payment expired');
    expect(html).toContain('This payment has expired and anything reserved on your card was released.');
    expect(html).toContain('<dt>Amount</dt><dd>$4.00</dd>');
    expect(hasForm(html)).toBe(false);
  });

  it('an unknown or malformed link: a 404 HTML page; its QR code, a 404 problem (an image is never a page)', async () => {
    for (const path of ['/pay/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/pay/short']) {
      const { res, html } = await page(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(heading(html)).toBe('Payment link not found');
    }
    for (const path of ['/pay/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/qr.svg', '/pay/short/qr.svg']) {
      const res = await t.app.request(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await res.json()) as { code: string }).code).toBe('not_found');
    }
  });

  it("an unknown link's 404 page, and an unknown sticker's, speak the browser's language (or ?lang=), lang and dir set", async () => {
    for (const language of LANGUAGES) {
      const texts = CATALOGUES[language];
      const root = `<html lang="${language}" dir="${directionOf(language)}">`;
      for (const [path, headers, title] of [
        ['/pay/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { 'accept-language': `xx, ${language};q=0.8` }, texts['page.linkNotFound']],
        ['/pay/short', { 'accept-language': language }, texts['page.linkNotFound']],
        [`/pay/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA?lang=${language}`, { 'accept-language': 'xx' }, texts['page.linkNotFound']],
        ['/s/0000000000000000000000', { 'accept-language': language }, texts['page.stickerNotFound']],
        [`/s/NOT-A-CODE?lang=${language}`, {}, texts['page.stickerNotFound']],
      ] as const) {
        const { res, html } = await page(path, headers);
        expect(res.status, path).toBe(404);
        expect(/<html[^>]*>/.exec(html)?.[0], `${language} ${path}`).toBe(root);
        expect(heading(html), `${language} ${path}`).toBe(escapeHtml(title));
        expect(html, `${language} ${path}`).toContain(`<title>${escapeHtml(title)}</title>`);
        expect(html, `${language} ${path}`).toContain(escapeHtml(texts['page.notFound.text']));
      }
    }
  });

  it('weighs at most 20 KB gzip with its script and style (HTML + pay.js + pages.css)', async () => {
    const created = await t.client.init({ amount: 12.5, currency: 'USD', products: [{ name: 'Lamp', quantity: 1, amount: 12.5 }] });
    const gzip = async (path: string) => {
      const res = await t.app.request(path);
      expect(res.status).toBe(200);
      return gzipSync(Buffer.from(await res.arrayBuffer()), { level: 9 }).length;
    };
    const total = (await gzip(pathOf(created.body))) + (await gzip('/pay-assets/pay.js')) + (await gzip('/pay-assets/pages.css'));
    expect(total).toBeLessThanOrEqual(20 * 1024);
  });
});

describe('the page assets and the QR code', () => {
  it('serves the script and style sheet with their types, revalidated by ETag', async () => {
    for (const [path, type] of [
      ['/pay-assets/pay.js', 'text/javascript'],
      ['/pay-assets/pages.css', 'text/css'],
      ['/pay-assets/sticker.js', 'text/javascript'],
      ['/pay-assets/terminal.js', 'text/javascript'],
    ] as const) {
      const res = await t.app.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(new RegExp(`^${type}`));
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const etag = res.headers.get('etag')!;
      expect((await t.app.request(path, { headers: { 'if-none-match': etag } })).status).toBe(304);
    }
  });

  it('GET /pay/:linkId/qr.svg is an SVG QR code of the link', async () => {
    const created = await t.client.init({ amount: 1, currency: 'USD' });
    const res = await t.app.request(`${pathOf(created.body)}/qr.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svg = await res.text();
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toMatch(/<path d="M/);
  });
});
