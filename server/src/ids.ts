import { randomBytes } from './random-bytes';

/**
 * The identifiers the service makes: transaction numbers, link ids, payment, refund and token ids, confirmation
 * numbers, and the random alphanumerics credentials and tokens are made of.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniform over the alphabet: bytes of 248 and above are dropped (248 = 4 × 62) rather than folded in. */
export function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 16 Crockford base32 characters (80 random bits): easy to read aloud, no I/L/O/U. */
export function newTransactionNumber(): string {
  let out = '';
  for (const byte of randomBytes(16)) out += CROCKFORD[byte & 31];
  return out;
}

/** The hosted page's id: 32 base64url characters (192 bits), the consumer's only credential. */
export function newLinkId(): string {
  return randomBytes(24).toString('base64url');
}

export function newPaymentId(): string {
  return `pay_${randomAlphanumeric(24)}`;
}

export function newRefundId(): string {
  return `rf_${randomAlphanumeric(24)}`;
}

/** Authorization tokens (`auth_`) and tokenized payment methods (`tok_`). */
export function newToken(type: 'authorization' | 'token'): string {
  return `${type === 'authorization' ? 'auth' : 'tok'}_${randomAlphanumeric(32)}`;
}

export function newConfirmationNumber(): string {
  let out = '';
  for (const byte of randomBytes(10)) out += String(byte % 10);
  return out;
}
