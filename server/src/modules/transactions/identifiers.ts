import { randomBytes } from '../../random-bytes';
import { randomAlphanumeric } from '../merchants';

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

/** Authorization tokens (`auth_`) and tokenized payment methods (`tok_`). */
export function newToken(type: 'authorization' | 'token'): string {
  return `${type === 'authorization' ? 'auth' : 'tok'}_${randomAlphanumeric(32)}`;
}

export function newConfirmationNumber(): string {
  let out = '';
  for (const byte of randomBytes(10)) out += String(byte % 10);
  return out;
}
