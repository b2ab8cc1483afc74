/**
 * Card number, expiry and CVC rules: brand detection, formatting as typed, Luhn and date checks. Pure functions; the
 * error texts come from the card fields' catalogue (`en` unless a `texts` in another language is passed).
 */
import { EN_CARD } from '../shared/i18n/en';
import { Texts } from '../shared/i18n/texts';

/** The card fields' texts in one language. */
export type CardTexts = Pick<Texts<keyof typeof EN_CARD>, 't'>;
const EN_TEXTS: CardTexts = new Texts(EN_CARD);

export interface CardBrand {
  id: string;
  label: string;
  /** Allowed lengths in digits. */
  lengths: readonly number[];
  /** Group sizes for display, e.g. [4, 6, 5] for Amex. */
  gaps: readonly number[];
  cvcLength: number;
}

const GROUPS_OF_4 = [4, 4, 4, 4, 3];
const BRANDS: readonly (CardBrand & { test: (digits: string) => boolean })[] = [
  { id: 'amex', label: 'American Express', lengths: [15], gaps: [4, 6, 5], cvcLength: 4, test: (d) => /^3[47]/.test(d) },
  { id: 'diners', label: 'Diners Club', lengths: [14, 16, 19], gaps: [4, 6, 4], cvcLength: 3, test: (d) => /^3(?:0[0-5]|[689])/.test(d) },
  { id: 'jcb', label: 'JCB', lengths: [16, 17, 18, 19], gaps: GROUPS_OF_4, cvcLength: 3, test: (d) => prefixIn(d, 4, 3528, 3589) },
  {
    id: 'mastercard',
    label: 'Mastercard',
    lengths: [16],
    gaps: GROUPS_OF_4,
    cvcLength: 3,
    test: (d) => /^5[1-5]/.test(d) || prefixIn(d, 4, 2221, 2720),
  },
  {
    id: 'discover',
    label: 'Discover',
    lengths: [16, 17, 18, 19],
    gaps: GROUPS_OF_4,
    cvcLength: 3,
    test: (d) => /^(?:6011|65|64[4-9])/.test(d) || prefixIn(d, 6, 622126, 622925),
  },
  { id: 'unionpay', label: 'UnionPay', lengths: [16, 17, 18, 19], gaps: GROUPS_OF_4, cvcLength: 3, test: (d) => /^62/.test(d) },
  { id: 'visa', label: 'Visa', lengths: [13, 16, 19], gaps: GROUPS_OF_4, cvcLength: 3, test: (d) => /^4/.test(d) },
];

const UNKNOWN_BRAND: CardBrand = { id: 'unknown', label: 'Card', lengths: [12, 13, 14, 15, 16, 17, 18, 19], gaps: GROUPS_OF_4, cvcLength: 3 };

function prefixIn(digits: string, size: number, low: number, high: number): boolean {
  if (digits.length < size) return false;
  const prefix = Number(digits.slice(0, size));
  return prefix >= low && prefix <= high;
}

export const digitsOf = (text: string): string => text.replace(/\D/g, '');

/** The brand of a (partial) card number; null until a prefix is recognised. */
export function detectBrand(digits: string): CardBrand | null {
  return BRANDS.find((brand) => brand.test(digits)) ?? null;
}

export function brandOrDefault(digits: string): CardBrand {
  return detectBrand(digits) ?? UNKNOWN_BRAND;
}

export function maxNumberLength(digits: string): number {
  return Math.max(...brandOrDefault(digits).lengths);
}

/** "4242424242424242" → "4242 4242 4242 4242"; Amex "378282246310005" → "3782 822463 10005". */
export function formatCardNumber(digits: string): string {
  const { gaps } = brandOrDefault(digits);
  const groups: string[] = [];
  let start = 0;
  for (const size of gaps) {
    if (start >= digits.length) break;
    groups.push(digits.slice(start, start + size));
    start += size;
  }
  if (start < digits.length) groups.push(digits.slice(start));
  return groups.join(' ');
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Typed expiry text → "MM/YY" as far as typed. A first digit above 1 is a month: "4" → "04/". */
export function formatExpiry(text: string, deleting: boolean): string {
  const long = /^\s*(\d{1,2})\s*\/\s*\d{2}(\d{2})\s*$/.exec(text);
  let digits = long ? `${long[1]!.padStart(2, '0')}${long[2]}` : digitsOf(text);
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return deleting ? digits : `${digits}/`;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

export interface Expiry {
  month: number;
  /** Four digits. */
  year: number;
}

export function parseExpiry(text: string): Expiry | null {
  const match = /^(\d{2})\/(\d{2})$/.exec(text.trim());
  if (!match) return null;
  return { month: Number(match[1]), year: 2000 + Number(match[2]) };
}

export type CardField = 'number' | 'expiry' | 'cvc';
export interface CardValues {
  number: string;
  expiry: string;
  cvc: string;
}
export interface FieldError {
  field: CardField;
  message: string;
}

export function numberError(text: string, texts: CardTexts = EN_TEXTS): string | null {
  const digits = digitsOf(text);
  if (digits.length === 0) return texts.t('card.number.missing');
  const brand = brandOrDefault(digits);
  if (digits.length < Math.min(...brand.lengths)) return texts.t('card.number.incomplete');
  if (!brand.lengths.includes(digits.length) || !luhnValid(digits)) return texts.t('card.number.invalid');
  return null;
}

export function expiryError(text: string, now: Date, texts: CardTexts = EN_TEXTS): string | null {
  if (text.trim() === '') return texts.t('card.expiry.missing');
  const expiry = parseExpiry(text);
  if (!expiry) return texts.t('card.expiry.incomplete');
  if (expiry.month < 1 || expiry.month > 12) return texts.t('card.expiry.month');
  const thisMonth = now.getFullYear() * 12 + now.getMonth();
  const cardMonth = expiry.year * 12 + expiry.month - 1;
  if (cardMonth < thisMonth) return texts.t('card.expiry.expired');
  if (cardMonth > thisMonth + 20 * 12) return texts.t('card.expiry.far');
  return null;
}

export function cvcError(text: string, numberText: string, texts: CardTexts = EN_TEXTS): string | null {
  const digits = digitsOf(text);
  const expected = brandOrDefault(digitsOf(numberText)).cvcLength;
  if (digits.length === 0) return texts.t('card.cvc.missing');
  if (digits.length !== expected) return texts.t('card.cvc.length', { digits: expected });
  return null;
}

export function validateCard(values: CardValues, now: Date, texts: CardTexts = EN_TEXTS): FieldError[] {
  const errors: FieldError[] = [];
  const number = numberError(values.number, texts);
  if (number) errors.push({ field: 'number', message: number });
  const expiry = expiryError(values.expiry, now, texts);
  if (expiry) errors.push({ field: 'expiry', message: expiry });
  const cvc = cvcError(values.cvc, values.number, texts);
  if (cvc) errors.push({ field: 'cvc', message: cvc });
  return errors;
}
