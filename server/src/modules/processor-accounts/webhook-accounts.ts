import type { Queryable } from '../../db/client';
import type { Env } from '../../env';
import type { Logger } from '../../logger';
import { openCredentials } from '../../processor/processor-secrets';
import { findProcessorAccount, findProcessorAccountsOfKind, type ProcessorAccountRow } from './processor-accounts.queries';
import { ADYEN_HINT_AFTER_ACCOUNT } from './processor-accounts.service';

/**
 * The most merchants' own Stripe accounts a Stripe webhook is looked for in (one HMAC each for those with a webhook
 * secret): Stripe's event does not say which account sent it. The secret is sealed with the rest of the credentials,
 * so an account without one counts too. Beyond it an account's webhooks are refused, and the log says so
 * (`stripe_webhook_accounts_capped`).
 */
export const MAX_STRIPE_WEBHOOK_ACCOUNTS = 100;
/** The most stored accounts that may name one Adyen merchant account (normally one). */
const MAX_ADYEN_ACCOUNTS_PER_CODE = 10;

/** A merchant's own account as its processor's webhook sees it: whose it is, and the secret its webhooks are signed with. */
export interface WebhookAccount {
  merchantId: string;
  secret: string;
}

type Deps = { db: Queryable; env: Pick<Env, 'PROCESSOR_SECRETS_KEY'>; logger: Logger };

/**
 * The merchants' own Adyen accounts on the merchant account `merchantAccountCode`, each with its webhook's HMAC key
 * (the stored accounts are found by their hint, then the opened credentials must name the account exactly).
 */
export async function adyenWebhookAccounts(deps: Deps, merchantAccountCode: string): Promise<WebhookAccount[]> {
  const rows = await findProcessorAccountsOfKind(deps.db, 'adyen', MAX_ADYEN_ACCOUNTS_PER_CODE, `${merchantAccountCode}${ADYEN_HINT_AFTER_ACCOUNT}`);
  return opened(deps, rows).flatMap(({ merchantId, credentials }) =>
    credentials.merchantAccount === merchantAccountCode && credentials.hmacKey ? [{ merchantId, secret: credentials.hmacKey }] : [],
  );
}

/**
 * The merchants' own Stripe accounts that have a webhook signing secret, among the first MAX_STRIPE_WEBHOOK_ACCOUNTS
 * (one more is read, to know whether any was left out).
 */
export async function stripeWebhookAccounts(deps: Deps): Promise<WebhookAccount[]> {
  const found = await findProcessorAccountsOfKind(deps.db, 'stripe', MAX_STRIPE_WEBHOOK_ACCOUNTS + 1);
  const rows = found.slice(0, MAX_STRIPE_WEBHOOK_ACCOUNTS);
  if (found.length > MAX_STRIPE_WEBHOOK_ACCOUNTS) {
    deps.logger.warn(
      { code: 'stripe_webhook_accounts_capped', accounts: MAX_STRIPE_WEBHOOK_ACCOUNTS },
      "Stripe webhooks are tried with the first merchants' own accounts only; the others' are refused",
    );
  }
  return opened(deps, rows).flatMap(({ merchantId, credentials }) => (credentials.webhookSecret ? [{ merchantId, secret: credentials.webhookSecret }] : []));
}

/**
 * Whether a Stripe webhook verified with the secret of `signerMerchantId`'s own account (null: the default account's,
 * STRIPE_WEBHOOK_SECRET) speaks for a payment of `merchantId`: its own account's for its own, the default's for a
 * merchant with no account of its own.
 */
export async function stripeSignerSpeaksFor(db: Queryable, signerMerchantId: string | null, merchantId: string): Promise<boolean> {
  if (signerMerchantId !== null) return signerMerchantId === merchantId;
  return (await findProcessorAccount(db, merchantId)) === null;
}

/** The rows' credentials opened; one that does not open (PROCESSOR_SECRETS_KEY changed) is left out, and logged. */
function opened(deps: Deps, rows: ProcessorAccountRow[]) {
  const key = deps.env.PROCESSOR_SECRETS_KEY;
  if (!key) return [];
  return rows.flatMap((row) => {
    try {
      return [{ merchantId: row.merchantId, credentials: openCredentials(row.sealedCredentials, key, row.merchantId) }];
    } catch {
      deps.logger.error(
        { code: 'processor_account_unreadable', merchantId: row.merchantId },
        "a merchant's own processor account does not open with PROCESSOR_SECRETS_KEY; its webhooks are refused",
      );
      return [];
    }
  });
}
