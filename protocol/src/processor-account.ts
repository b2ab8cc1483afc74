import { z } from 'zod';

/** `PUT /merchant/processor`: the merchant's own processor account. Secrets go in; they never come back out. */
export const ConnectProcessorRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('stripe'),
    secretKey: z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]{4,200}$/, 'must be a Stripe secret key (sk_live_…, sk_test_… or rk_…)')
      .describe("The account's secret or restricted key"),
    webhookSecret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=_]{4,200}$/, 'must be a Stripe webhook signing secret (whsec_…)')
      .optional()
      .describe(
        "The signing secret of the webhook endpoint (`/processors/stripe/webhooks`) registered in the account's dashboard; without it the account's webhooks are refused",
      ),
  }),
  z.strictObject({
    kind: z.literal('adyen'),
    apiKey: z.string().min(10).max(500).describe('The API key of a web service user of the account'),
    merchantAccount: z.string().min(1).max(200).describe('The merchant account payments are made on'),
    hmacKey: z
      .string()
      .regex(/^([0-9A-Fa-f]{2}){8,128}$/, 'must be the hex HMAC key Adyen shows for the webhook')
      .describe(
        'The HMAC key (hex) of the standard webhook (`/processors/adyen/webhooks`) registered on the merchant account; its notifications are verified with it',
      ),
  }),
]);
export type ConnectProcessorRequest = z.input<typeof ConnectProcessorRequestSchema>;

/** Which processor account the merchant's payments go to: its own, or the service's default. Never a secret. */
export const MerchantProcessorSchema = z.object({
  kind: z.enum(['sandbox', 'stripe', 'adyen']).describe('The connector'),
  account: z.enum(['default', 'own']).describe("`own`: the merchant's account; `default`: the service's"),
  hint: z.string().nullable().describe("What may be shown of the merchant's credentials (`sk_live_…wxyz`); null for the default account"),
  updatedAt: z.string().nullable().describe('When the merchant last connected its account'),
});
export type MerchantProcessor = z.infer<typeof MerchantProcessorSchema>;
