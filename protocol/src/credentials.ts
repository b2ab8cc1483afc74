import { z } from 'zod';
import { isPlainOrigin } from './card-frame-csp.js';
import { CREDENTIAL_PREFIXES } from './constants';

/**
 * What provisioning a merchant returns, once: `pnpm svc merchant create --json` prints it, and the sandbox writes
 * the demo merchant's to `.data/sandbox-credentials.json`. `deviceId` and `clientId` are the values sent on the
 * wire (`dev_…`, `ck_…`).
 */
export const ProvisionedMerchantSchema = z.object({
  merchantId: z.string(),
  branchId: z.string(),
  apiKey: z.string().startsWith(CREDENTIAL_PREFIXES.merchant_key),
  branchApiKey: z.string().startsWith(CREDENTIAL_PREFIXES.branch_key),
  clientId: z.string().startsWith(CREDENTIAL_PREFIXES.client),
  deviceId: z.string().startsWith(CREDENTIAL_PREFIXES.device),
  hmacSecret: z.string().startsWith(CREDENTIAL_PREFIXES.signing_secret),
  /** The public page of the device's sticker, `{base_url}/s/<stickerCode>` (docs/integrating.md#terminals-and-stickers): not a credential. */
  stickerUrl: z.string(),
});
export type ProvisionedMerchant = z.infer<typeof ProvisionedMerchantSchema>;

/**
 * An allowed browser origin for a client ID: scheme, host name (or IPv4 address) and optional port, nothing else, as
 * the browser writes it (a trailing slash is dropped). It goes into the card frame's frame-ancestors as it is, so no
 * wildcard, quote or comma (isPlainOrigin).
 */
export const OriginSchema = z
  .string()
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return url.origin === value.replace(/\/$/, '') && isPlainOrigin(url.origin);
  }, 'must be an origin such as https://shop.example.com (scheme, host name and port; no path, no wildcard)')
  .transform((value) => new URL(value).origin);
