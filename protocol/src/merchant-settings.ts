import { z } from 'zod';
import { CallbackUrlSchema } from './callback-url';
import { ApiKeyFieldSchema } from './lifecycle-requests';

export const CALLBACK_METHODS = ['GET', 'POST'] as const;
export type CallbackMethod = (typeof CALLBACK_METHODS)[number];

const DefaultCallbackUrlSchema = CallbackUrlSchema.describe('Where callbacks go when `POST /transactions/init` names none (https in production)');

const CallbackMethodSchema = z
  .string()
  .transform((v) => v.toUpperCase())
  .pipe(z.enum(CALLBACK_METHODS, { error: 'callbackMethod must be GET or POST' }));

/**
 * The callback a transaction gets when its `init` names no `callbackURL` (docs/integrating.md#default-callback): a
 * branch's own default first, then the merchant's.
 */
export const CallbackDefaultsSchema = z.object({
  callbackURL: z.string().nullable().describe('The default callback URL; null for none'),
  callbackMethod: z.enum(CALLBACK_METHODS).describe('The method of the default callback URL'),
});
export type CallbackDefaults = z.infer<typeof CallbackDefaultsSchema>;

export const BranchSettingsSchema = CallbackDefaultsSchema.extend({
  branchId: z.string().describe('The branch (`branchId` of `pnpm svc merchant create`)'),
  name: z.string(),
});

/**
 * `GET /merchant/settings`: the merchant's settings, with each branch's own. One object, so settings added later
 * are fields beside these.
 */
export const MerchantSettingsSchema = CallbackDefaultsSchema.extend({
  branches: z.array(BranchSettingsSchema).describe("Each branch's own defaults; a branch without a callbackURL uses the merchant's"),
});
export type MerchantSettings = z.infer<typeof MerchantSettingsSchema>;

/**
 * `POST /merchant/settings`: the fields given change, the others stay. With `branchId` they change that branch's
 * defaults instead of the merchant's.
 */
export const UpdateMerchantSettingsRequestSchema = z
  .strictObject({
    branchId: z.uuid('branchId must be a branch id').optional().describe("Change this branch's defaults instead of the merchant's"),
    callbackURL: z.union([DefaultCallbackUrlSchema, z.null()]).optional().describe('The default callback URL; null removes it'),
    callbackMethod: CallbackMethodSchema.optional().describe('GET or POST (POST when never set)'),
    apiKey: ApiKeyFieldSchema.optional(),
  })
  .refine((body) => body.callbackURL !== undefined || body.callbackMethod !== undefined, {
    message: 'give at least one setting to change (callbackURL, callbackMethod)',
  });
export type UpdateMerchantSettingsRequest = z.input<typeof UpdateMerchantSettingsRequestSchema>;
