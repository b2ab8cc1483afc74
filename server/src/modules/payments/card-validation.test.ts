import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors';
import { assertCardUsable, passesLuhn } from './card-validation';

const NOW = new Date('2026-05-15T12:00:00Z');
const VISA = { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };

function refusal(card: typeof VISA): { code: string; message: string; errors: { path: string; message?: string }[] } {
  try {
    assertCardUsable(card, NOW);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { code: error.code, message: error.detail, errors: error.options.errors ?? [] };
  }
  throw new Error('expected the card to be refused');
}

describe('passesLuhn', () => {
  it.each(['4242424242424242', '5555555555554444', '378282246310005', '6011111111111117', '0', '18', '59', '26'])('%s passes', (digits) => {
    expect(passesLuhn(digits)).toBe(true);
  });

  // One digit off, two neighbours swapped, a doubled digit over 9 not reduced: the checksum catches each.
  it.each(['4242424242424241', '4242424242424224', '5555555555554445', '378282246310006', '1', '50', '81'])('%s fails', (digits) => {
    expect(passesLuhn(digits)).toBe(false);
  });
});

describe('assertCardUsable', () => {
  it('accepts a good card and gives back its number without spaces or dashes', () => {
    expect(assertCardUsable({ ...VISA, number: '4242 4242-4242 4242' }, NOW)).toEqual(VISA);
  });

  it('accepts 12 and 19 digits, and refuses 11 and 20', () => {
    expect(assertCardUsable({ ...VISA, number: '000000000000' }, NOW).number).toBe('000000000000');
    expect(assertCardUsable({ ...VISA, number: '0000000000000000000' }, NOW).number).toBe('0000000000000000000');
    for (const number of ['00000000000', '00000000000000000000', '4242x42424242424', '']) {
      expect(refusal({ ...VISA, number }).errors).toEqual([{ path: 'card.number', message: 'must be 12 to 19 digits' }]);
    }
  });

  it('refuses a number that fails the checksum, naming the field', () => {
    const refused = refusal({ ...VISA, number: '4242424242424241' });
    expect(refused.code).toBe('invalid_card');
    expect(refused.message).toBe('card.number: is not a valid card number (checksum)');
    expect(refused.errors).toEqual([{ path: 'card.number', message: 'is not a valid card number (checksum)' }]);
  });

  it('takes a card through the last day of its expiry month and refuses it the month after (UTC)', () => {
    expect(assertCardUsable({ ...VISA, expMonth: 5, expYear: 2026 }, NOW).expMonth).toBe(5);
    expect(assertCardUsable({ ...VISA, expMonth: 5, expYear: 2026 }, new Date('2026-05-31T23:59:59Z')).expYear).toBe(2026);
    expect(assertCardUsable({ ...VISA, expMonth: 1, expYear: 2027 }, NOW).expYear).toBe(2027);
    expect(refusal({ ...VISA, expMonth: 4, expYear: 2026 }).errors).toEqual([{ path: 'card.expYear', message: 'the card has expired' }]);
    expect(refusal({ ...VISA, expMonth: 12, expYear: 2025 }).errors).toEqual([{ path: 'card.expYear', message: 'the card has expired' }]);
    expect(() => assertCardUsable({ ...VISA, expMonth: 5, expYear: 2026 }, new Date('2026-06-01T00:00:00Z'))).toThrow(/expired/);
  });

  it('wants 3 CVC digits, and 4 for American Express (34 and 37)', () => {
    expect(assertCardUsable({ ...VISA, cvc: '000' }, NOW).cvc).toBe('000');
    for (const cvc of ['12', '1234', '12a', ' 123']) {
      expect(refusal({ ...VISA, cvc }).errors).toEqual([{ path: 'card.cvc', message: 'must be 3 digits' }]);
    }
    for (const number of ['378282246310005', '341111111111111']) {
      expect(assertCardUsable({ ...VISA, number, cvc: '1234' }, NOW).cvc).toBe('1234');
      for (const cvc of ['123', '12345', '123a']) {
        expect(refusal({ ...VISA, number, cvc }).errors).toEqual([{ path: 'card.cvc', message: 'must be 4 digits' }]);
      }
    }
    // 35… is not American Express, nor is a number with 34 further in: three digits.
    expect(assertCardUsable({ ...VISA, number: '3530111333300000', cvc: '123' }, NOW).cvc).toBe('123');
    expect(assertCardUsable({ ...VISA, number: '4340000000000001', cvc: '123' }, NOW).cvc).toBe('123');
  });

  it('names every problem at once, the first in the message', () => {
    const refused = refusal({ number: '4242424242424241', expMonth: 1, expYear: 2020, cvc: '1' });
    expect(refused.message).toBe('card.number: is not a valid card number (checksum)');
    expect(refused.errors.map((e) => e.path)).toEqual(['card.number', 'card.expYear', 'card.cvc']);
  });
});
