import { describe, expect, it } from 'vitest';
import { linkEmailText, linkSmsText, SMS_SEGMENT_CHARACTERS } from './link-message-texts';

/** The GSM 03.38 basic character set (one septet each); the extension table is left out on purpose. */
const GSM7 = new Set('@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà');
const isGsm7 = (text: string) => [...text].every((c) => GSM7.has(c));

// A production-like link: a real origin and a link id as newLinkId makes it (24 random bytes, base64url).
const url = 'https://payments.example-service.com/pay/Zm9vYmFyYmF6cXV4cXV1eHh5enp5MTIzNDU2';
const facts = { businessName: 'Corner Shop', amountCents: 1250, currency: 'USD', url };

describe('the payment link messages', () => {
  it('the SMS names the business, the amount and the link, in one GSM-7 segment', () => {
    const sms = linkSmsText(facts);
    expect(sms).toBe(`Corner Shop asks you to pay 12.50 USD: ${url}`);
    expect(sms.length).toBeLessThanOrEqual(SMS_SEGMENT_CHARACTERS);
    expect(isGsm7(sms)).toBe(true);
  });

  it('a business name too long for the segment is shortened, never the amount or the link', () => {
    const sms = linkSmsText({
      ...facts,
      businessName: 'The Very Long Named Family Bakery, Coffee Roasters and Delicatessen of the Old Town Market Square',
      amountCents: 123456789,
    });
    expect(sms.length).toBe(SMS_SEGMENT_CHARACTERS);
    expect(sms).toMatch(/^The Very Long Named Family Bakery.*\.\.\. asks you to pay 1234567\.89 USD: https:\/\/payments\.example-service\.com\/pay\/Zm9v\w+$/);
    expect(sms.endsWith(url)).toBe(true);
    expect(isGsm7(sms)).toBe(true);
  });

  it('an authorization without an amount asks to approve a payment', () => {
    expect(linkSmsText({ ...facts, amountCents: null })).toBe(`Corner Shop asks you to approve a payment: ${url}`);
  });

  it('the e-mail names the business, the amount and the link', () => {
    const email = linkEmailText(facts);
    expect(email).toContain('Corner Shop asks you to pay 12.50 USD.');
    expect(email).toContain(`Pay securely here: ${url}`);
  });
});
