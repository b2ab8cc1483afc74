import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { cvcError, detectBrand, expiryError, formatCardNumber, formatExpiry, luhnValid, numberError, validateCard } from './card-rules';

const NOW = new Date('2026-05-15T12:00:00Z');

describe('card rules', () => {
  it('detects brands from their prefixes', () => {
    const cases: [string, string | null][] = [
      ['4', 'visa'],
      ['4242', 'visa'],
      ['51', 'mastercard'],
      ['2221', 'mastercard'],
      ['2720', 'mastercard'],
      ['2721', null],
      ['34', 'amex'],
      ['37', 'amex'],
      ['6011', 'discover'],
      ['65', 'discover'],
      ['622126', 'discover'],
      ['62', 'unionpay'],
      ['3528', 'jcb'],
      ['36', 'diners'],
      ['300', 'diners'],
      ['9', null],
      ['', null],
    ];
    for (const [digits, brand] of cases) expect(detectBrand(digits)?.id ?? null, digits).to.equal(brand);
  });

  it('formats numbers in groups of 4, Amex 4-6-5, Diners 4-6-4', () => {
    expect(formatCardNumber('4242424242424242')).to.equal('4242 4242 4242 4242');
    expect(formatCardNumber('42424')).to.equal('4242 4');
    expect(formatCardNumber('378282246310005')).to.equal('3782 822463 10005');
    expect(formatCardNumber('37828')).to.equal('3782 8');
    expect(formatCardNumber('36227206271667')).to.equal('3622 720627 1667');
    expect(formatCardNumber('4000056655665556123')).to.equal('4000 0566 5566 5556 123');
    expect(formatCardNumber('')).to.equal('');
  });

  it('formatting keeps every digit in order', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{0,19}$/), (digits) => {
        expect(formatCardNumber(digits).replace(/ /g, '')).to.equal(digits);
      }),
    );
  });

  it('checks Luhn', () => {
    for (const valid of ['4242424242424242', '5555555555554444', '378282246310005', '4000000000000002', '4000000000009995', '4000000000000119']) {
      expect(luhnValid(valid), valid).to.equal(true);
    }
    expect(luhnValid('4242424242424241')).to.equal(false);
    expect(luhnValid('')).to.equal(false);
  });

  it('a single changed digit always breaks Luhn', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 9 }), (position, delta) => {
        const digits = [...'4242424242424242'];
        digits[position] = String((Number(digits[position]) + delta) % 10);
        expect(luhnValid(digits.join(''))).to.equal(false);
      }),
    );
  });

  it('explains what is wrong with a number', () => {
    expect(numberError('')).to.equal('Enter the card number.');
    expect(numberError('4242 4242')).to.equal('The card number is incomplete.');
    expect(numberError('4242 4242 4242 4241')).to.equal('The card number is not valid.');
    expect(numberError('3782 822463 1000')).to.equal('The card number is incomplete.');
    expect(numberError('4242 4242 4242 4242')).to.equal(null);
    expect(numberError('3782 822463 10005')).to.equal(null);
  });

  it('formats the expiry as MM/YY while typing', () => {
    expect(formatExpiry('1', false)).to.equal('1');
    expect(formatExpiry('4', false)).to.equal('04/');
    expect(formatExpiry('12', false)).to.equal('12/');
    expect(formatExpiry('12', true)).to.equal('12');
    expect(formatExpiry('123', false)).to.equal('12/3');
    expect(formatExpiry('12/34', false)).to.equal('12/34');
    expect(formatExpiry('1234', false)).to.equal('12/34');
    expect(formatExpiry('12 / 2034', false)).to.equal('12/34');
    expect(formatExpiry('1/2034', false)).to.equal('01/34');
    expect(formatExpiry('12/345', false)).to.equal('12/34');
  });

  it('validates the expiry date against today', () => {
    expect(expiryError('', NOW)).to.equal('Enter the expiry date.');
    expect(expiryError('12/', NOW)).to.match(/incomplete/);
    expect(expiryError('13/30', NOW)).to.match(/month/);
    expect(expiryError('00/30', NOW)).to.match(/month/);
    expect(expiryError('04/26', NOW)).to.equal('The card has expired.');
    expect(expiryError('05/26', NOW), 'this month is still valid').to.equal(null);
    expect(expiryError('12/30', NOW)).to.equal(null);
    expect(expiryError('12/60', NOW)).to.match(/too far/);
  });

  it('wants 3 CVC digits, 4 for Amex', () => {
    expect(cvcError('', '4242')).to.equal('Enter the security code.');
    expect(cvcError('12', '4242')).to.equal('The security code must be 3 digits.');
    expect(cvcError('123', '4242')).to.equal(null);
    expect(cvcError('123', '3782 822463 10005')).to.equal('The security code must be 4 digits.');
    expect(cvcError('1234', '3782 822463 10005')).to.equal(null);
  });

  it('lists every invalid field', () => {
    expect(validateCard({ number: '', expiry: '', cvc: '' }, NOW).map((error) => error.field)).to.deep.equal(['number', 'expiry', 'cvc']);
    expect(validateCard({ number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' }, NOW)).to.deep.equal([]);
  });
});
