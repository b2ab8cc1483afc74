import { parseArgs } from 'node:util';
import { UpdateMerchantSettingsRequestSchema } from '@svc/protocol';
import type { Clock } from '../clock';
import type { Database } from '../db/client';
import type { Env } from '../env';
import { ApiError } from '../errors';
import { merchantSettings, updateMerchantSettings, type MerchantSettingsUpdate } from '../modules/merchant-settings';
import { printable, printableJson } from './printable';

/** The command's line in the CLI's usage, and its help. */
export const MERCHANT_SETTINGS_SYNOPSIS =
  '       svc merchant settings --merchant ID [--branch ID] [--callback-url URL | --clear-callback-url] [--callback-method GET|POST] [--json]';
export const MERCHANT_SETTINGS_HELP = `merchant settings
  --merchant ID        the merchantId that merchant create printed
  --branch ID          change that branch's defaults instead of the merchant's
  --callback-url URL   where callbacks go when an init names no callbackURL (the branch's first, then the merchant's);
                       checked as an init's callbackURL is (https in production, a public address, no credentials)
  --clear-callback-url remove that default
  --callback-method M  GET or POST (POST when never set)
  --json               print the settings as JSON
  Without a change it prints the settings.`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface MerchantSettingsCommand {
  command: 'merchant settings';
  merchantId: string;
  /** Null: print the settings. */
  update: MerchantSettingsUpdate | null;
  json: boolean;
}

/** `svc merchant settings …` (argv after `merchant settings`). Throws `usage(message)`'s error when wrong. */
export function parseMerchantSettingsCommand(argv: string[], usage: (message: string) => Error): MerchantSettingsCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        merchant: { type: 'string' },
        branch: { type: 'string' },
        'callback-url': { type: 'string' },
        'clear-callback-url': { type: 'boolean', default: false },
        'callback-method': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw usage((error as Error).message);
  }
  if (!values.merchant || !UUID.test(values.merchant)) throw usage('--merchant ID is required (the merchantId merchant create printed)');
  if (values.branch !== undefined && !UUID.test(values.branch)) throw usage(`--branch ${values.branch} is not a branch id (a UUID)`);
  if (values['callback-url'] !== undefined && values['clear-callback-url']) throw usage('give --callback-url or --clear-callback-url, not both');
  const callbackURL = values['clear-callback-url'] ? null : values['callback-url'];
  const callbackMethod = values['callback-method'];
  if (callbackURL === undefined && callbackMethod === undefined) {
    if (values.branch !== undefined) throw usage('--branch needs a change: --callback-url, --clear-callback-url or --callback-method');
    return { command: 'merchant settings', merchantId: values.merchant.toLowerCase(), update: null, json: values.json };
  }
  const parsed = UpdateMerchantSettingsRequestSchema.safeParse({ branchId: values.branch?.toLowerCase(), callbackURL, callbackMethod });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const option = issue?.path[0] === 'callbackMethod' ? '--callback-method' : '--callback-url';
    throw usage(`${option}: ${issue?.message ?? 'not accepted'}`);
  }
  return { command: 'merchant settings', merchantId: values.merchant.toLowerCase(), update: parsed.data, json: values.json };
}

/** Prints the merchant's settings, after the change the command names (if any). */
export async function runMerchantSettings(db: Database, env: Env, clock: Clock, command: MerchantSettingsCommand): Promise<number> {
  let settings;
  try {
    const update = command.update;
    settings = update
      ? await db.transaction((tx) => updateMerchantSettings(tx, env, command.merchantId, update, { actor: { kind: 'operator' }, at: clock.now() }))
      : await merchantSettings(db, command.merchantId);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    process.stderr.write(`svc: ${error.code === 'not_found' ? `no such merchant${command.update?.branchId ? ' or branch of it' : ''}` : error.detail}\n`);
    return 1;
  }
  if (command.json) {
    process.stdout.write(`${printableJson(settings)}\n`);
    return 0;
  }
  // Stored text is printed with its control characters escaped.
  const line = (who: string, s: { callbackURL: string | null; callbackMethod: string }) =>
    `${who}: ${s.callbackURL === null ? '(no default callback URL)' : `${s.callbackMethod} ${printable(s.callbackURL)}`}`;
  process.stdout.write([line('merchant', settings), ...settings.branches.map((b) => line(`  branch ${b.branchId} (${printable(b.name)})`, b)), ''].join('\n'));
  return 0;
}
