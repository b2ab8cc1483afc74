import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'sealed:v1:';

/**
 * An answer that carries a secret (an SDK session's token) is stored sealed: AES-256-GCM under a key derived from the
 * caller's Idempotency-Key and a secret of the caller (its client ID). The database keeps neither in the clear (the
 * key is stored as its hash, the client ID as its credential hash), so reading the idempotency store opens nothing;
 * the same request sent again carries both and replays the answer byte for byte.
 */
export class AnswerSeal {
  private readonly key: Buffer;

  constructor(callerSecret: string, idempotencyKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', `${callerSecret}\0${idempotencyKey}`, 'svc idempotency', 'sealed answer v1', 32));
  }

  /** The key as the store keeps it: a hash, so it cannot be read back to derive the seal. */
  static storedKey(idempotencyKey: string): string {
    return `sha256:${createHash('sha256').update(idempotencyKey).digest('hex')}`;
  }

  seal(text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return `${PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** The text sealed by `seal` under the same key; throws when the key differs or the text was altered. */
  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) throw new Error('not a sealed answer');
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
