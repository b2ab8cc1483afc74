import { describe, expect, it } from 'vitest';
import { smsShape } from '../../messages/sms-encoding';
import { formatAmount } from '@svc/sdk-core/i18n';
import { linkSmsText, SMS_SEGMENT_CHARACTERS } from './link-message-texts';

/** The GSM 03.38 basic character set (one septet each); the extension table is left out on purpose. */
const GSM7 = new Set('@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà');
const isGsm7 = (text: string) => [...text].every((c) => GSM7.has(c));

// A production-like link: a real origin and a link id as newLinkId makes it (24 random bytes, base64url).
const url = 'https://payments.example-service.com/pay/Zm9vYmFyYmF6cXV4cXV1eHh5enp5MTIzNDU2';
const facts = { businessName: 'Corner Shop', amountCents: 1250, currency: 'USD', url, language: 'en' } as const;
const LONG_NAME = 'The Very Long Named Family Bakery, Coffee Roasters and Delicatessen of the Old Town Market Square';

describe('the payment link messages', () => {
  it('the SMS names the business, the amount and the link, in one GSM-7 segment', () => {
    const sms = linkSmsText(facts);
    expect(sms).toBe(`Corner Shop asks you to pay $12.50: ${url}`);
    expect(sms.length).toBeLessThanOrEqual(SMS_SEGMENT_CHARACTERS);
    expect(isGsm7(sms)).toBe(true);
  });

  it('a business name too long for the segment is shortened, never the amount or the link', () => {
    const sms = linkSmsText({
      ...facts,
      businessName: LONG_NAME,
      amountCents: 123456789,
    });
    expect(sms.length).toBe(SMS_SEGMENT_CHARACTERS);
    expect(sms).toMatch(/^The Very Long Named Family Bakery.*\.\.\. asks you to pay \$1,234,567\.89: https:\/\/payments\.example-service\.com\/pay\/Zm9v\w+$/);
    expect(sms.endsWith(url)).toBe(true);
    expect(isGsm7(sms)).toBe(true);
  });

  it('an authorization without an amount asks to approve a payment', () => {
    expect(linkSmsText({ ...facts, amountCents: null })).toBe(`Corner Shop asks you to approve a payment: ${url}`);
  });

  it('speaks the consumer’s language: he, ar and ru in UCS-2 within two segments, the amount and link whole', () => {
    for (const language of ['he', 'ar', 'ru'] as const) {
      const sms = linkSmsText({ ...facts, language, businessName: `${LONG_NAME} ${LONG_NAME}`, amountCents: 123456789 });
      const shape = smsShape(sms);
      expect(shape.encoding, language).toBe('ucs2');
      expect(shape.segments, language).toBeLessThanOrEqual(2);
      expect(sms, language).toContain(formatAmount(123456789, 'USD', language));
      expect(sms.endsWith(url), language).toBe(true);
      expect(sms, language).toContain('The Very');
      expect(sms, language).toContain('...');
    }
    const he = linkSmsText({ ...facts, language: 'he' });
    expect(he).toBe(`בקשת תשלום מאת Corner Shop: ${formatAmount(1250, 'USD', 'he')}. לתשלום: ${url}`);
    expect(smsShape(he)).toMatchObject({ encoding: 'ucs2', segments: 2 });
    expect(linkSmsText({ ...facts, language: 'he', amountCents: null })).toBe(`בקשה לאישור תשלום מאת Corner Shop: ${url}`);
    expect(linkSmsText({ ...facts, language: 'ru' })).toBe(`Счёт от Corner Shop на сумму 12,50\u00a0$. Оплата: ${url}`);
  });

  it('fr, de and es stay in one GSM-7 segment: the currency format with plain spaces (GSM-7 has no no-break space)', () => {
    for (const [language, amount] of [
      ['fr', '12,50 $US'],
      ['de', '12,50 $'],
      ['es', '12,50 US$'],
    ] as const) {
      const sms = linkSmsText({ ...facts, language, businessName: LONG_NAME });
      expect(smsShape(sms), language).toMatchObject({ encoding: 'gsm7', segments: 1 });
      expect(sms.endsWith(url), language).toBe(true);
      expect(sms, language).toContain(amount);
    }
    expect(linkSmsText({ ...facts, language: 'fr' })).toBe(`Corner Shop vous demande de payer 12,50 $US : ${url}`);
  });

  it('writes the amount as the page does, or with its code where its sign would cost GSM-7 (₪ in an English SMS)', () => {
    const shekels = linkSmsText({ ...facts, amountCents: 123450, currency: 'ILS' });
    expect(shekels).toBe(`Corner Shop asks you to pay ILS 1,234.50: ${url}`);
    expect(smsShape(shekels)).toMatchObject({ encoding: 'gsm7', segments: 1 });
    expect(linkSmsText({ ...facts, amountCents: 123450, currency: 'EUR', language: 'de' })).toContain('1.234,50 €');
    expect(linkSmsText({ ...facts, amountCents: 123450, currency: 'ILS', language: 'he' })).toContain(formatAmount(123450, 'ILS', 'he'));
  });
});

describe('SMS encoding', () => {
  it('counts GSM-7 septets (extension characters twice) and UCS-2 units, with the segment sizes of a long message', () => {
    expect(smsShape('a'.repeat(160))).toEqual({ encoding: 'gsm7', units: 160, segments: 1 });
    expect(smsShape('a'.repeat(161))).toEqual({ encoding: 'gsm7', units: 161, segments: 2 });
    expect(smsShape('€'.repeat(80))).toEqual({ encoding: 'gsm7', units: 160, segments: 1 });
    expect(smsShape('ש'.repeat(70))).toEqual({ encoding: 'ucs2', units: 70, segments: 1 });
    expect(smsShape('ש'.repeat(71))).toEqual({ encoding: 'ucs2', units: 71, segments: 2 });
    expect(smsShape(`${'a'.repeat(100)}ç`)).toMatchObject({ encoding: 'ucs2', segments: 2 });
  });
});
