import type { CardInput } from '@svc/protocol';
import { ApiError } from '../../errors';

/** A digit doubled, its two digits added: 7 → 14 → 5. */
const DOUBLED = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9];

/** Luhn checksum over a string of digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[digits.length - 1 - i]);
    // Stryker disable next-line AssignmentOperator: a sum and its negative are both multiples of 10, or neither.
    sum += i % 2 === 1 ? DOUBLED[d]! : d;
  }
  return sum % 10 === 0;
}

/**
 * The checks a card must pass before it reaches a processor: 12–19 digits passing Luhn, an expiry month not in
 * the past (by the service clock), a 3-digit CVC (4 for American Express). 400 `invalid_card` names the field.
 */
export function assertCardUsable(card: CardInput, now: Date): CardInput {
  const number = card.number.replace(/[\s-]/g, '');
  const problems: { path: string; message: string }[] = [];
  if (!/^\d{12,19}$/.test(number)) problems.push({ path: 'card.number', message: 'must be 12 to 19 digits' });
  else if (!passesLuhn(number)) problems.push({ path: 'card.number', message: 'is not a valid card number (checksum)' });
  const monthsNow = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (card.expYear * 12 + (card.expMonth - 1) < monthsNow) problems.push({ path: 'card.expYear', message: 'the card has expired' });
  const amex = /^3[47]/.test(number);
  if (amex ? !/^\d{4}$/.test(card.cvc) : !/^\d{3}$/.test(card.cvc)) {
    problems.push({ path: 'card.cvc', message: amex ? 'must be 4 digits' : 'must be 3 digits' });
  }
  if (problems.length > 0) {
    throw new ApiError('invalid_card', `${problems[0]!.path}: ${problems[0]!.message}`, { errors: problems });
  }
  return { ...card, number };
}
