import { describe, expect, it } from 'vitest';
import { linkEmail } from './link-email';

const url = 'https://payments.example-service.com/pay/Zm9vYmFyYmF6cXV4cXV1eHh5enp5MTIzNDU2';
const facts = { businessName: 'Corner Shop', amountCents: 1250, currency: 'USD', url, language: 'en' } as const;

describe('the payment link by e-mail', () => {
  it('names the business in its subject, and the amount and the link in its text', () => {
    const email = linkEmail(facts);
    expect(email.subject).toBe('Payment request from Corner Shop');
    expect(email.body).toContain('Corner Shop asks you to pay $12.50.');
    expect(email.body).toContain(`Pay securely here: ${url}`);
  });

  it('speaks the consumer’s language, the subject too', () => {
    const email = linkEmail({ ...facts, language: 'de' });
    expect(email.subject).toBe('Zahlungsanforderung von Corner Shop');
    expect(email.body).toContain('Corner Shop bittet Sie, 12,50\u00a0$ zu bezahlen.');
    expect(email.body).toContain(`Hier sicher bezahlen: ${url}`);
    expect(linkEmail({ ...facts, language: 'he' }).subject).toBe('בקשת תשלום מאת Corner Shop');
  });

  it('has an HTML part with the text’s paragraphs in the language’s direction (right to left in he and ar)', () => {
    for (const language of ['he', 'ar'] as const) {
      const { html, body } = linkEmail({ ...facts, language });
      expect(html, language).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${language}" dir="rtl">`));
      expect(html, language).toContain('<body dir="rtl">');
      for (const paragraph of body.split('\n\n').filter((p) => !p.includes(url))) expect(html, language).toContain(`<p>${paragraph}</p>`);
    }
    const en = linkEmail(facts).html;
    expect(en).toContain('<html lang="en" dir="ltr">');
    expect(en).toContain(`<p>Pay securely here: <a href="${url}">${url}</a></p>`);
  });

  it('escapes the business name in the HTML part', () => {
    const { html, subject } = linkEmail({ ...facts, businessName: 'Tom & <Jerry>' });
    expect(subject).toBe('Payment request from Tom & <Jerry>');
    expect(html).toContain('Tom &amp; &lt;Jerry&gt; asks you to pay $12.50.');
    expect(html).not.toContain('<Jerry>');
  });
});
