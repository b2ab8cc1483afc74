import { z } from 'zod';
import { CREDENTIAL_PREFIXES, PAYMENT_METHODS } from './constants';
import { OriginSchema } from './credentials';
import { ApiKeyFieldSchema } from './lifecycle-requests';

/**
 * What a merchant manages with its merchant API key (and an operator with `pnpm svc`): its credentials, a client ID's
 * allowed origins, the HMAC secret, the payment methods its widgets offer, and the audit log of every such change.
 * No answer but a creation's or a roll's ever carries a key or a secret.
 */

export const CredentialKindSchema = z.enum(['merchant_key', 'branch_key', 'device', 'client']);
export type CredentialKindName = z.infer<typeof CredentialKindSchema>;

/** The kinds a merchant may create through the API or the CLI (a device ID comes with its terminal). */
export const CREATABLE_CREDENTIAL_KINDS = ['merchant_key', 'branch_key', 'client'] as const;

/** At most this many allowed origins per client ID. */
export const MAX_ALLOWED_ORIGINS = 50;

/** A credential as a listing shows it: never the key, only its prefix and last four characters. */
export const CredentialSchema = z.object({
  credentialId: z.string(),
  kind: CredentialKindSchema,
  hint: z.string().describe('The prefix and the last four characters, e.g. `sk_…AbCd`: enough to tell keys apart, never the key'),
  branchId: z.string().nullable(),
  deviceId: z.string().nullable(),
  createdAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().nullable(),
  allowedOrigins: z.array(z.string()).optional().describe('Client IDs only: the browser origins that may use it'),
});
export type Credential = z.infer<typeof CredentialSchema>;

export const CredentialListSchema = z.object({ credentials: z.array(CredentialSchema) });
export type CredentialList = z.infer<typeof CredentialListSchema>;

const OriginListSchema = z
  .array(OriginSchema)
  .max(MAX_ALLOWED_ORIGINS)
  .transform((origins) => [...new Set(origins)]);

/** A field a kind of credential must not have: refused with `message` when sent (the document's `not: {}`). */
const absent = (message: string) => z.never({ error: message }).optional();
const NO_ORIGINS = absent('only a client ID has allowed origins');
const BRANCH = 'Required for a branch key; optional for a client ID (its sessions then belong to the branch)';

/**
 * `POST /credentials`, one shape per kind: a merchant key acts for every branch (no `branchId`), a branch key names
 * its branch, and only a client ID has allowed origins (and may name a branch its sessions belong to).
 */
export const CreateCredentialRequestSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('merchant_key'),
      branchId: absent('a merchant key acts for every branch; leave branchId out'),
      allowedOrigins: NO_ORIGINS,
      apiKey: ApiKeyFieldSchema.optional(),
    }),
    z.strictObject({
      kind: z.literal('branch_key'),
      branchId: z.uuid({ error: (issue) => (issue.input === undefined ? 'is required for a branch key' : 'is not a branch id') }).describe(BRANCH),
      allowedOrigins: NO_ORIGINS,
      apiKey: ApiKeyFieldSchema.optional(),
    }),
    z.strictObject({
      kind: z.literal('client'),
      branchId: z.uuid('is not a branch id').optional().describe(BRANCH),
      allowedOrigins: OriginListSchema.optional().describe('Client IDs only: the browser origins that may use it'),
      apiKey: ApiKeyFieldSchema.optional(),
    }),
  ],
  { error: `kind must be one of ${CREATABLE_CREDENTIAL_KINDS.join(', ')}` },
);
export type CreateCredentialRequest = z.input<typeof CreateCredentialRequestSchema>;

export const CreatedCredentialSchema = z.object({
  credential: CredentialSchema,
  value: z.string().describe('The new key or client ID itself: shown only in this answer (only its hash is stored)'),
});
export type CreatedCredential = z.infer<typeof CreatedCredentialSchema>;

export const AllowedOriginRequestSchema = z.strictObject({
  origin: OriginSchema.describe('A browser origin: scheme, host and port, no path (as the browser sends it in Origin)'),
  apiKey: ApiKeyFieldSchema.optional(),
});
export type AllowedOriginRequest = z.input<typeof AllowedOriginRequestSchema>;

/**
 * Removing an origin takes it as the list shows it: an origin is normalized as when it was added, and any other
 * listed text is taken as it is, so an entry stored before today's origin rule (a wildcard, say) can still be removed.
 */
export const RemovedOriginSchema = z
  .string()
  .min(1)
  .max(2048)
  .transform((value) => {
    const origin = OriginSchema.safeParse(value);
    return origin.success ? origin.data : value;
  });
export const RemoveAllowedOriginRequestSchema = z.strictObject({
  origin: RemovedOriginSchema.describe('An origin on the list, as `GET /credentials` shows it'),
  apiKey: ApiKeyFieldSchema.optional(),
});
export type RemoveAllowedOriginRequest = z.input<typeof RemoveAllowedOriginRequestSchema>;

/** Rolling the HMAC secret: the previous secret keeps signing beside the new one for `overlapSeconds`. */
export const DEFAULT_SECRET_OVERLAP_S = 86_400;
export const MAX_SECRET_OVERLAP_S = 7 * 86_400;

export const RollWebhookSecretRequestSchema = z.strictObject({
  overlapSeconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_SECRET_OVERLAP_S)
    .default(DEFAULT_SECRET_OVERLAP_S)
    .describe('How long the previous secret still signs callbacks beside the new one (default 86400, 0 to stop it at once)'),
  apiKey: ApiKeyFieldSchema.optional(),
});
export type RollWebhookSecretRequest = z.input<typeof RollWebhookSecretRequestSchema>;

export const RolledWebhookSecretSchema = z.object({
  hmacSecret: z.string().startsWith(CREDENTIAL_PREFIXES.signing_secret).describe('The new secret: shown only in this answer'),
  previousSecretValidUntil: z.iso.datetime().nullable().describe('Until when the previous secret still signs callbacks; null with an overlap of 0'),
});
export type RolledWebhookSecret = z.infer<typeof RolledWebhookSecretSchema>;

export const PaymentMethodsSchema = z.object({
  paymentMethods: z.array(z.enum(PAYMENT_METHODS)).describe("What the merchant's widgets offer, in the order card, paypal, applepay, googlepay"),
});
export type PaymentMethods = z.infer<typeof PaymentMethodsSchema>;

export const UpdatePaymentMethodsRequestSchema = z.strictObject({
  paymentMethods: z
    .array(z.enum(PAYMENT_METHODS))
    .min(1, 'name at least one payment method (to stop the widgets, revoke the client IDs)')
    .transform((methods) => PAYMENT_METHODS.filter((method) => methods.includes(method))),
  apiKey: ApiKeyFieldSchema.optional(),
});
export type UpdatePaymentMethodsRequest = z.input<typeof UpdatePaymentMethodsRequestSchema>;

// ---- The audit log ----

export const AUDIT_ACTIONS = [
  'credential.created',
  'credential.revoked',
  'allowed_origin.added',
  'allowed_origin.removed',
  'webhook_secret.rolled',
  'payment_methods.updated',
  'merchant_settings.updated',
  'processor_account.connected',
] as const;
export const AuditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditActionSchema>;

/** Who made a change: a credential of the merchant through the API, or the operator through `pnpm svc`. */
export const AuditActorSchema = z.object({
  kind: z.enum(['merchant_key', 'branch_key', 'operator']),
  credentialId: z.string().nullable(),
  hint: z.string().nullable(),
});
export type AuditActor = z.infer<typeof AuditActorSchema>;

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  actor: AuditActorSchema,
  action: AuditActionSchema,
  target: z.object({ credentialId: z.string(), kind: CredentialKindSchema, hint: z.string() }).nullable(),
  details: z.object({
    origin: z.string().optional(),
    branchId: z.string().nullable().optional(),
    allowedOrigins: z.array(z.string()).optional(),
    overlapSeconds: z.number().optional(),
    previousSecretValidUntil: z.string().nullable().optional(),
    paymentMethods: z.array(z.string()).optional(),
    previousPaymentMethods: z.array(z.string()).optional(),
    /** A default callback changed: the new URL's origin only (a URL may carry a token in its path or query), or null once cleared. */
    callbackOrigin: z.string().nullable().optional(),
    callbackMethod: z.string().optional(),
    /** A processor account connected: its connector, a hint of its key (never a secret), and the connector it replaced. */
    processorKind: z.string().optional(),
    processorHint: z.string().optional(),
    previousProcessorKind: z.string().nullable().optional(),
  }),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditLogPageSchema = z.object({
  data: z.array(AuditEntrySchema),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable().describe('Pass as `startingAfter` for the next (older) page; null on the last page'),
});
export type AuditLogPage = z.infer<typeof AuditLogPageSchema>;

/** `GET /merchant/audit-log`'s query: `limit` (1–100, default 20) and `startingAfter` (the page before's `nextCursor`). */
export const AuditLogQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('How many entries a page holds: 1 to 100 (default 20)'),
  startingAfter: z
    .string()
    .describe("The page after this one: the previous page's `nextCursor`")
    .regex(/^[1-9][0-9]{0,15}$/, 'is not a cursor (pass the nextCursor of the page before)')
    .optional(),
});
export type AuditLogQuery = z.output<typeof AuditLogQuerySchema>;

/** The query of `GET /merchant/audit-log` as a client writes it. */
export interface AuditLogParams {
  /** 1 to 100 entries a page (default 20). */
  limit?: number;
  /** The `nextCursor` of the page before. */
  startingAfter?: string | null;
}
