import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { ProcessorCredentials } from './connectors';

const VERSION = 'v1';

/**
 * A merchant's processor credentials sealed for storage: AES-256-GCM under PROCESSOR_SECRETS_KEY (32 bytes, base64),
 * a fresh 12-byte nonce each time, the merchant's id as associated data (a sealed value copied to another merchant
 * does not open). Stored as `v1.<nonce>.<tag>.<ciphertext>`, base64 each.
 */
export function sealCredentials(credentials: ProcessorCredentials, keyBase64: string, merchantId: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(keyBase64), nonce);
  cipher.setAAD(Buffer.from(merchantId));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return [VERSION, nonce, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64'))).join('.');
}

/** The credentials `sealed` holds; throws when it was not sealed for this merchant under this key, or was altered. */
export function openCredentials(sealed: string, keyBase64: string, merchantId: string): ProcessorCredentials {
  const [version, nonce, tag, body] = sealed.split('.');
  if (version !== VERSION || !nonce || !tag || body === undefined) throw new Error('sealed processor credentials in an unknown format');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(keyBase64), Buffer.from(nonce, 'base64'));
  decipher.setAAD(Buffer.from(merchantId));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  const opened = Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  return JSON.parse(opened) as ProcessorCredentials;
}

function keyOf(keyBase64: string): Buffer {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('PROCESSOR_SECRETS_KEY must be 32 bytes');
  return key;
}
