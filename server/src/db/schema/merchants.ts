import { sql } from 'drizzle-orm';
import { boolean, check, customType, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** The merchant a row belongs to: `merchant_id`, required, referencing merchants. */
export const merchantIdColumn = () =>
  uuid('merchant_id')
    .notNull()
    .references(() => merchants.id);

/**
 * The callback a transaction gets when its init names none (docs/integrating.md#default-callback): the branch's,
 * else the merchant's. A null URL is no default.
 */
const callbackDefaultColumns = () => ({
  callbackUrl: text('callback_url'),
  callbackMethod: text('callback_method', { enum: ['GET', 'POST'] })
    .notNull()
    .default('POST'),
});

export const merchants = pgTable('merchants', {
  id: uuid('id').primaryKey().defaultRandom(),
  businessId: integer('business_id').generatedAlwaysAsIdentity().notNull().unique(),
  name: text('name').notNull(),
  /** Signs callbacks, so it must be usable, not hashed. Never logged, never returned after creation. */
  hmacSecret: text('hmac_secret').notNull(),
  /**
   * The secret before the last roll, which still signs callbacks beside `hmacSecret` until
   * `previousHmacSecretExpiresAt` (docs/integrating.md#rolling-the-hmac-secret). Null when no roll is in its overlap.
   */
  previousHmacSecret: text('previous_hmac_secret'),
  previousHmacSecretExpiresAt: timestamp('previous_hmac_secret_expires_at', { withTimezone: true }),
  /** The payment methods the merchant's widgets offer: a non-empty subset of PAYMENT_METHODS, in its order. */
  paymentMethods: text('payment_methods')
    .array()
    .notNull()
    .default(sql`'{card,paypal,applepay,googlepay}'::text[]`),
  isSandboxDemo: boolean('is_sandbox_demo').notNull().default(false),
  ...callbackDefaultColumns(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const branches = pgTable(
  'branches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantIdColumn(),
    name: text('name').notNull(),
    ...callbackDefaultColumns(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('branches_merchant_idx').on(t.merchantId)],
);

export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantIdColumn(),
    branchId: uuid('branch_id')
      .notNull()
      .references(() => branches.id),
    name: text('name').notNull(),
    /**
     * The public code of the device's sticker (`/s/<stickerCode>`, docs/integrating.md#terminals-and-stickers): 122 random bits from PostgreSQL's
     * strong generator, unrelated to the device ID. Not a credential: it can only open a payment page.
     */
    stickerCode: text('sticker_code')
      .notNull()
      .unique()
      .default(sql`replace(gen_random_uuid()::text, '-', '')`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('devices_merchant_idx').on(t.merchantId)],
);

export const CREDENTIAL_KINDS = ['merchant_key', 'branch_key', 'device', 'client'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** Every credential the service accepts, stored as the SHA-256 of the presented value. */
export const apiCredentials = pgTable(
  'api_credentials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantIdColumn(),
    branchId: uuid('branch_id').references(() => branches.id),
    deviceId: uuid('device_id').references(() => devices.id),
    kind: text('kind', { enum: CREDENTIAL_KINDS }).notNull(),
    secretHash: bytea('secret_hash').notNull().unique(),
    /** Prefix and last four characters, to tell keys apart in an operator's listing. */
    hint: text('hint').notNull(),
    allowedOrigins: text('allowed_origins')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('api_credentials_merchant_idx').on(t.merchantId),
    check(
      'api_credentials_kind_scope',
      sql`
      (${t.kind} = 'merchant_key' and ${t.branchId} is null and ${t.deviceId} is null)
      or (${t.kind} = 'branch_key' and ${t.branchId} is not null and ${t.deviceId} is null)
      or (${t.kind} = 'device' and ${t.branchId} is not null and ${t.deviceId} is not null)
      or (${t.kind} = 'client' and ${t.deviceId} is null)`,
    ),
    check('api_credentials_hash_len', sql`octet_length(${t.secretHash}) = 32`),
  ],
);
