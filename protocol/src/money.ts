import { MINOR_UNITS_PER_MAJOR } from './constants';

/**
 * Converts a major-unit amount with at most two decimals ("12.34" or 12.34) to integer cents without
 * floating-point drift. Returns null when the value has more than two decimals or is not a finite number.
 */
export function majorToCents(value: number | string): number | null {
  // A number as JavaScript prints it, its shortest round trip: 10.005 stays "10.005" and is refused below. Only numbers
  // below 1e-6 or from 1e21 print with an exponent, and none of them is an amount of at most two decimals in safe cents.
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const cents = Number(whole) * MINOR_UNITS_PER_MAJOR + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return null;
  return sign === '-' ? -cents : cents;
}

/** Integer cents to a major-unit number (1234 → 12.34), as the spec's samples report amounts. */
export function centsToMajor(cents: number): number {
  return cents / MINOR_UNITS_PER_MAJOR;
}

/** Integer cents as people read them, with two decimals and no grouping: 1250 → "12.50" (pages, messages, buttons). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / MINOR_UNITS_PER_MAJOR)}.${String(abs % MINOR_UNITS_PER_MAJOR).padStart(2, '0')}`;
}
