import * as paths from '../endpoint-paths';
import { MerchantSettingsSchema, UpdateMerchantSettingsRequestSchema } from '../merchant-settings';
import type { EndpointDescription } from './description';

/** The merchant's and its branches' settings (the default callback). */
export const MERCHANT_SETTINGS_ENDPOINTS = {
  getMerchantSettings: {
    operationId: 'getMerchantSettings',
    method: 'get',
    path: paths.getMerchantSettingsPath,
    tag: 'Merchant',
    summary: "Read the merchant's settings",
    description:
      'The default `callbackURL` and `callbackMethod` a transaction gets when its `init` names no callbackURL, for the merchant and each of its ' +
      "branches (a branch's own default first, then the merchant's).",
    auth: ['merchant_key'],
    response: { status: 200, description: 'The settings', schema: MerchantSettingsSchema },
    errors: [],
    idempotent: false,
  },
  updateMerchantSettings: {
    operationId: 'updateMerchantSettings',
    method: 'post',
    path: paths.updateMerchantSettingsPath,
    tag: 'Merchant',
    summary: "Change the merchant's settings",
    description:
      "Changes the settings given and keeps the others; with `branchId`, that branch's. A default callbackURL passes the checks an init's " +
      'does (https in production, a public address, no credentials in it); `callbackURL: null` removes it.',
    auth: ['merchant_key'],
    request: UpdateMerchantSettingsRequestSchema,
    response: { status: 200, description: 'The settings after the change', schema: MerchantSettingsSchema },
    errors: ['not_found', 'callback_url_not_allowed'],
    idempotent: true,
  },
} as const satisfies Record<string, EndpointDescription>;
