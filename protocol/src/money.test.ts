import { describe, expect, it } from 'vitest';
import { amountInputToCents } from './init-request';
import { centsToMajor, formatCents, majorToCents } from './money';

describe('majorToCents', () => {
  it.each([
    [12.34, 1234],
    ['12.34', 1234],
    [0.1, 10],
    [0.29, 29], // 0.29 * 100 = 28.999999999999996 in floating point
    [1.005 * 0 + 19.99, 1999],
    ['7', 700],
    ['7.5', 750],
    [1e21, null],
    [10.005, null],
    ['10.005', null],
    ['1,5', null],
    ['', null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    ['-3.10', -310],
    [' 12.34\n', 1234],
    ['12.34.5', null],
    [1e-7, null], // printed "1e-7"
    [1e20, null], // 10^22 cents: past whole-cent precision
    ['90071992547409.93', null], // 2^53 + 1 cents
    ['90071992547409.91', 9_007_199_254_740_991],
    [Number.NEGATIVE_INFINITY, null],
  ])('%s → %s', (input, expected) => {
    expect(majorToCents(input)).toBe(expected);
  });

  it('round-trips every cent value exactly', () => {
    for (let cents = 0; cents < 100_000; cents += 7) expect(majorToCents(centsToMajor(cents))).toBe(cents);
  });
});

describe('amountInputToCents', () => {
  it('takes integers only when isCent', () => {
    expect(amountInputToCents(1250, true)).toBe(1250);
    expect(amountInputToCents('1250', true)).toBe(1250);
    expect(amountInputToCents(12.5, true)).toBeNull();
    expect(amountInputToCents('12.5', true)).toBeNull();
  });

  it('takes at most two decimals otherwise', () => {
    expect(amountInputToCents(12.5, false)).toBe(1250);
    expect(amountInputToCents(12.555, false)).toBeNull();
  });
});

describe('formatCents', () => {
  it.each([
    [1250, '12.50'],
    [5, '0.05'],
    [100, '1.00'],
    [0, '0.00'],
    [123456789, '1234567.89'],
    [-250, '-2.50'],
  ])('%i cents reads %s', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });
});
