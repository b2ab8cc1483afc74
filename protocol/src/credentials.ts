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

const ORIGIN_ONLY = 'must be an origin such as https://shop.example.com (scheme, host name and port; no path, no wildcard)';

/**
 * An allowed browser origin for a client ID: scheme, host name (or IPv4 address) and optional port, nothing else, as
 * the browser writes it in `Origin` (one trailing slash is forgiven). It goes into the card frame's frame-ancestors
 * as it is, so no wildcard, quote or comma (isPlainOrigin). The pattern says the shape to the OpenAPI document; the
 * URL check keeps what a browser would send.
 */
export const OriginSchema = z
  .string()
  .regex(/^https?:\/\/[a-z0-9.-]+(?::[0-9]{1,5})?\/?$/, { error: ORIGIN_ONLY, abort: true })
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return url.origin === value.replace(/\/$/, '') && isPlainOrigin(url.origin);
  }, ORIGIN_ONLY)
  .transform((value) => new URL(value).origin);
