import type { MerchantSettings, UpdateMerchantSettingsRequestSchema } from '@svc/protocol';
import type { z } from 'zod';
import type { Queryable } from '../../db/client';
import type { Env } from '../../env';
import { NotFoundError } from '../../errors';
import { recordAudit, type AuditActorRef } from '../audit';
import { assertCallbackUrlAllowed } from '../callbacks';
import { readMerchantSettings, setCallbackDefaults } from './merchant-settings.queries';

export type MerchantSettingsUpdate = z.output<typeof UpdateMerchantSettingsRequestSchema>;

/** `GET /merchant/settings`. */
export async function merchantSettings(db: Queryable, merchantId: string): Promise<MerchantSettings> {
  const settings = await readMerchantSettings(db, merchantId);
  if (!settings) throw new NotFoundError('merchant');
  return settings;
}

/**
 * `POST /merchant/settings` and `pnpm svc merchant settings`: changes the settings given (a branch's with
 * `branchId`). A default callback URL passes the checks an init's callbackURL does, so a transaction never gets a
 * default it could not have been given.
 */
export async function updateMerchantSettings(
  db: Queryable,
  env: Env,
  merchantId: string,
  update: MerchantSettingsUpdate,
  change: { actor: AuditActorRef; at: Date },
): Promise<MerchantSettings> {
  if (update.callbackURL) assertCallbackUrlAllowed(update.callbackURL, env);
  const found = await setCallbackDefaults(db, merchantId, update.branchId ?? null, {
    callbackUrl: update.callbackURL,
    callbackMethod: update.callbackMethod,
  });
  if (!found) throw new NotFoundError(update.branchId ? 'branch' : 'merchant');
  // Where callbacks go is as sensitive as who may call: audited like a credential change, with the URL's origin only.
  await recordAudit(db, {
    merchantId,
    actor: change.actor,
    action: 'merchant_settings.updated',
    at: change.at,
    details: {
      branchId: update.branchId ?? null,
      ...(update.callbackURL !== undefined && { callbackOrigin: update.callbackURL === null ? null : new URL(update.callbackURL).origin }),
      ...(update.callbackMethod !== undefined && { callbackMethod: update.callbackMethod }),
    },
  });
  return merchantSettings(db, merchantId);
}
