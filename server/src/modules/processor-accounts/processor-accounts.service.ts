import type { ConnectProcessorRequest, MerchantProcessor } from '@svc/protocol';
import type { Queryable } from '../../db/client';
import type { Env } from '../../env';
import { ApiError, NotFoundError } from '../../errors';
import type { ProcessorKind } from '../../processor/processor';
import { sealCredentials } from '../../processor/processor-secrets';
import { recordAudit, type AuditActorRef } from '../audit';
import { findProcessorAccount, saveProcessorAccount } from './processor-accounts.queries';

/** The default account's connector, as the service was started with it. */
export function defaultKind(env: Pick<Env, 'PROCESSOR' | 'SVC_MODE'>): ProcessorKind {
  return env.PROCESSOR ?? 'sandbox';
}

/** `GET /merchant/processor`: the account the merchant's payments go to; never a secret. */
export async function merchantProcessor(db: Queryable, env: Env, merchantId: string): Promise<MerchantProcessor> {
  const own = await findProcessorAccount(db, merchantId);
  if (own) return { kind: own.kind, account: 'own', hint: own.hint, updatedAt: own.updatedAt.toISOString() };
  return { kind: defaultKind(env), account: 'default', hint: null, updatedAt: null };
}

/**
 * `PUT /merchant/processor`, `svc processor connect`: the merchant's own account from now on. The credentials are
 * sealed with PROCESSOR_SECRETS_KEY before they reach the database (never logged, never answered: the answer and the
 * audit entry carry the kind and a hint only).
 */
export async function connectProcessor(
  tx: Queryable,
  env: Env,
  change: { merchantId: string; actor: AuditActorRef; now: Date },
  input: ConnectProcessorRequest,
): Promise<MerchantProcessor> {
  if (!env.PROCESSOR_SECRETS_KEY) {
    throw new ApiError(
      'processor_unsupported',
      "This service cannot keep a merchant's own processor account: its operator has not set PROCESSOR_SECRETS_KEY. Nothing was changed.",
    );
  }
  const { kind, ...credentials } = input;
  const cleaned = Object.fromEntries(Object.entries(credentials).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const previous = await findProcessorAccount(tx, change.merchantId);
  const hint = hintOf(input);
  try {
    await saveProcessorAccount(tx, {
      merchantId: change.merchantId,
      kind,
      hint,
      sealedCredentials: sealCredentials(cleaned, env.PROCESSOR_SECRETS_KEY, change.merchantId),
      updatedAt: change.now,
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23503') throw new NotFoundError('merchant');
    throw error;
  }
  await recordAudit(tx, {
    merchantId: change.merchantId,
    actor: change.actor,
    action: 'processor_account.connected',
    at: change.now,
    details: { processorKind: kind, processorHint: hint, previousProcessorKind: previous?.kind ?? null },
  });
  return { kind, account: 'own', hint, updatedAt: change.now.toISOString() };
}

/** What may be shown of an account: the key's prefix and its last four characters (`sk_live_…wxyz`), or Adyen's merchant account. */
function hintOf(input: ConnectProcessorRequest): string {
  if (input.kind === 'stripe') {
    const prefix = /^(sk|rk)_(test|live)_/.exec(input.secretKey)?.[0] ?? '';
    return `${prefix}…${input.secretKey.slice(-4)}`;
  }
  return `${input.merchantAccount}${ADYEN_HINT_AFTER_ACCOUNT}${input.apiKey.slice(-4)})`;
}

/** What follows the merchant account in an Adyen account's hint: the webhook looks its accounts up by it. */
export const ADYEN_HINT_AFTER_ACCOUNT = ' (key …';
