import { randomAlphanumeric } from '../../ids';
import { randomBytes } from '../../random-bytes';
import { CREDENTIAL_PREFIXES } from '@svc/protocol';
import type { CredentialKind } from '../../db/schema';

/** Wire prefixes (docs/integrating.md#credentials), by credential kind (from protocol). */
export const CREDENTIAL_PREFIX = {
  merchant_key: CREDENTIAL_PREFIXES.merchant_key,
  branch_key: CREDENTIAL_PREFIXES.branch_key,
  device: CREDENTIAL_PREFIXES.device,
  client: CREDENTIAL_PREFIXES.client,
} as const satisfies Record<CredentialKind, string>;

const SECRET_LENGTH = 32; // 32 characters of 62: about 190 random bits, above the 128 the contract asks for

/** A new credential: prefix + 32 random alphanumerics (easy to copy, no "_" or "-" to confuse). Shown once; only its hash is stored. */
export function generateCredential(kind: CredentialKind): string {
  return CREDENTIAL_PREFIX[kind] + randomAlphanumeric(SECRET_LENGTH);
}

/** The callback signing secret: `whsec_` + base64 of 32 random bytes (the Standard Webhooks format). */
export function generateHmacSecret(): string {
  return `${CREDENTIAL_PREFIXES.signing_secret}${randomBytes(32).toString('base64')}`;
}

/** "sk_…AbCd": enough to tell keys apart in a listing, useless to an attacker. */
export function credentialHint(value: string): string {
  const prefix = value.slice(0, value.indexOf('_') + 1);
  return `${prefix}…${value.slice(-4)}`;
}

/** The kind a presented value claims by its prefix, or null. Only a hint: the stored row decides. */
export function kindFromPrefix(value: string): CredentialKind | null {
  for (const [kind, prefix] of Object.entries(CREDENTIAL_PREFIX) as [CredentialKind, string][]) {
    if (value.startsWith(prefix)) return kind;
  }
  return null;
}
