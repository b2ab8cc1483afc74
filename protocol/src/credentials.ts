import { z } from 'zod';

/**
 * What provisioning a merchant returns, once: `pnpm svc merchant create --json` prints it, and the sandbox writes
 * the demo merchant's to `.data/sandbox-credentials.json`. `deviceId` and `clientId` are the values sent on the
 * wire (`dev_…`, `ck_…`).
 */
export const ProvisionedMerchantSchema = z.object({
  merchantId: z.string(),
  branchId: z.string(),
  apiKey: z.string().startsWith('sk_'),
  branchApiKey: z.string().startsWith('bk_'),
  clientId: z.string().startsWith('ck_'),
  deviceId: z.string().startsWith('dev_'),
  hmacSecret: z.string().startsWith('whsec_'),
  /** The public page of the device's sticker, `{base_url}/s/<stickerCode>` (CONTRACT §10): not a credential. */
  stickerUrl: z.string(),
});
export type ProvisionedMerchant = z.infer<typeof ProvisionedMerchantSchema>;

/** An allowed browser origin for a client ID: scheme, host and optional port, nothing else. */
export const OriginSchema = z
  .string()
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '');
  }, 'must be an origin such as https://shop.example.com (scheme, host and port; no path)')
  .transform((value) => new URL(value).origin);
