import { parseArgs } from 'node:util';
import { ConnectProcessorRequestSchema, type ConnectProcessorRequest } from '@svc/protocol';
import type { Clock } from '../clock';
import type { Database } from '../db/client';
import type { Env } from '../env';
import { ApiError } from '../errors';
import { connectProcessor } from '../modules/processor-accounts';

/** The command's line in the CLI's usage, and its help. */
export const PROCESSOR_CONNECT_SYNOPSIS =
  '       svc processor connect --merchant ID --kind stripe --secret-key KEY [--webhook-secret WHSEC]\n' +
  '       svc processor connect --merchant ID --kind adyen --api-key KEY --merchant-account NAME --hmac-key HEX';
export const PROCESSOR_CONNECT_HELP = `processor connect
  --merchant ID              the merchantId that merchant create printed
  --kind stripe|adyen        the merchant's own account: its new payments go there instead of the default (PROCESSOR)
  --secret-key KEY           Stripe: the account's secret key (sk_live_…, or a restricted rk_…)
  --webhook-secret WHSEC     Stripe: the signing secret of the webhook endpoint registered in its dashboard
  --api-key KEY              Adyen: the API key of the account's web service user
  --merchant-account NAME    Adyen: the merchant account
  --hmac-key HEX             Adyen: the webhook's HMAC key
  The credentials are encrypted with PROCESSOR_SECRETS_KEY, never printed, and the change is audited. The API endpoints
  stay the operator's (STRIPE_API_BASE, ADYEN_CHECKOUT_URL).`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OPTION_OF: Record<string, string> = {
  secretKey: '--secret-key',
  webhookSecret: '--webhook-secret',
  apiKey: '--api-key',
  merchantAccount: '--merchant-account',
  hmacKey: '--hmac-key',
  kind: '--kind',
};

export interface ProcessorConnectCommand {
  command: 'processor connect';
  merchantId: string;
  account: ConnectProcessorRequest;
}

/** `svc processor connect …` (argv after `processor connect`). Throws `usage(message)`'s error when wrong; never echoes a secret. */
export function parseProcessorConnectCommand(argv: string[], usage: (message: string) => Error): ProcessorConnectCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        merchant: { type: 'string' },
        kind: { type: 'string' },
        'secret-key': { type: 'string' },
        'webhook-secret': { type: 'string' },
        'api-key': { type: 'string' },
        'merchant-account': { type: 'string' },
        'hmac-key': { type: 'string' },
      },
    }));
  } catch (error) {
    throw usage((error as Error).message);
  }
  if (!values.merchant || !UUID.test(values.merchant)) throw usage('--merchant ID is required (the merchantId merchant create printed)');
  const given = {
    kind: values.kind,
    secretKey: values['secret-key'],
    webhookSecret: values['webhook-secret'],
    apiKey: values['api-key'],
    merchantAccount: values['merchant-account'],
    hmacKey: values['hmac-key'],
  };
  // Only the options given: the schema refuses the other kind's.
  const parsed = ConnectProcessorRequestSchema.safeParse(Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? 'kind');
    const option = OPTION_OF[field] ?? `--${field}`;
    const message =
      issue?.code === 'unrecognized_keys'
        ? `${issue.keys.map((key) => OPTION_OF[key] ?? key).join(', ')} does not go with --kind ${values.kind}`
        : `${option}: ${issue?.message ?? 'not accepted'}`;
    throw usage(values.kind === 'stripe' || values.kind === 'adyen' ? message : '--kind must be stripe or adyen');
  }
  return { command: 'processor connect', merchantId: values.merchant.toLowerCase(), account: parsed.data };
}

/** Connects the account and prints what the merchant's payments now go to (never a secret). */
export async function runProcessorConnect(db: Database, env: Env, clock: Clock, command: ProcessorConnectCommand): Promise<number> {
  try {
    const connected = await db.transaction((tx) =>
      connectProcessor(tx, env, { merchantId: command.merchantId, actor: { kind: 'operator' }, now: clock.now() }, command.account),
    );
    process.stdout.write(`Merchant ${command.merchantId} now pays through its own ${connected.kind} account (${connected.hint}).\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    process.stderr.write(`svc: ${error.code === 'not_found' ? 'no such merchant' : error.detail}\n`);
    return 1;
  }
}
