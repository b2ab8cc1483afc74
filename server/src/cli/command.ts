import { parseArgs } from 'node:util';
import { OriginSchema } from '@svc/protocol';
import { ADMIN_HELP, ADMIN_USAGE, isAdminCommand, parseAdminCommand, type AdminCommand } from './admin-commands';
import { MERCHANT_SETTINGS_HELP, MERCHANT_SETTINGS_SYNOPSIS, parseMerchantSettingsCommand, type MerchantSettingsCommand } from './merchant-settings-command';
import { PROCESSOR_CONNECT_HELP, PROCESSOR_CONNECT_SYNOPSIS, parseProcessorConnectCommand, type ProcessorConnectCommand } from './processor-connect-command';
import { UsageError } from './usage-error';
import {
  isWebhookEndpointsCommand,
  parseWebhookEndpointsCommand,
  WEBHOOK_ENDPOINTS_HELP,
  WEBHOOK_ENDPOINTS_SYNOPSIS,
  type WebhookEndpointsCommand,
} from './webhook-endpoints-command';

export { UsageError };

/**
 * The operator CLI: `pnpm svc merchant create …`, `pnpm svc processor-requests [retry ID]`, and the commands on one
 * merchant's credentials and settings (admin-commands.ts).
 * stdout carries only the result; diagnostics go to stderr. Exit 2 for a usage error, 1 for a failure.
 */
export const USAGE = `usage: svc merchant create --name NAME [--origin URL ...] [--json]
${MERCHANT_SETTINGS_SYNOPSIS}
${PROCESSOR_CONNECT_SYNOPSIS}
       svc processor-requests [--json]
       svc processor-requests retry ID
${ADMIN_USAGE}
${WEBHOOK_ENDPOINTS_SYNOPSIS}

merchant create
  --name NAME      the merchant's business name (shown to consumers)
  --origin URL     a browser origin allowed to use the client ID (repeatable), e.g. https://shop.example.com
  --json           print only the credentials as JSON
  Credentials are shown once: keys are stored only as hashes.

${MERCHANT_SETTINGS_HELP}

${PROCESSOR_CONNECT_HELP}

processor-requests
  Lists the processor requests the worker gave up on (needs_review, after PROCESSOR_REQUEST_GIVE_UP_S): what each
  reserved stays reserved. Settle each with the acquirer by its request key, then \`retry ID\` puts it back in flight:
  the worker asks the processor again with the same key (a payment is reversed) and records the outcome.

${ADMIN_HELP}

${WEBHOOK_ENDPOINTS_HELP}`;

export interface CreateMerchantCommand {
  command: 'merchant create';
  name: string;
  origins: string[];
  json: boolean;
}

export type ProcessorRequestsCommand = { command: 'processor-requests list'; json: boolean } | { command: 'processor-requests retry'; id: string };

export type Command =
  CreateMerchantCommand | MerchantSettingsCommand | ProcessorConnectCommand | ProcessorRequestsCommand | AdminCommand | WebhookEndpointsCommand;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseCommand(argv: string[]): Command {
  if (argv[0] === 'merchant' && argv[1] === 'settings') return parseMerchantSettingsCommand(argv.slice(2), (message) => new UsageError(message));
  if (argv[0] === 'processor' && argv[1] === 'connect') return parseProcessorConnectCommand(argv.slice(2), (message) => new UsageError(message));
  if (isAdminCommand(argv)) return parseAdminCommand(argv);
  if (isWebhookEndpointsCommand(argv)) return parseWebhookEndpointsCommand(argv, (message) => new UsageError(message));
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { name: { type: 'string' }, origin: { type: 'string', multiple: true }, json: { type: 'boolean', default: false } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [noun, verb, ...rest] = parsed.positionals;
  if (noun === 'processor-requests') return processorRequestsCommand(verb, rest, parsed.values);
  if (noun !== 'merchant' || verb !== 'create' || rest.length > 0) throw new UsageError('unknown command');
  const name = parsed.values.name?.trim();
  if (!name) throw new UsageError('--name is required');
  if (name.length > 200) throw new UsageError('--name must be at most 200 characters');
  const origins = (parsed.values.origin ?? []).map((value) => {
    const origin = OriginSchema.safeParse(value);
    if (!origin.success) throw new UsageError(`--origin ${value}: ${origin.error.issues[0]?.message ?? 'not an origin'}`);
    return origin.data;
  });
  return { command: 'merchant create', name, origins: [...new Set(origins)], json: parsed.values.json };
}

function processorRequestsCommand(
  verb: string | undefined,
  rest: string[],
  values: { name?: string; origin?: string[]; json: boolean },
): ProcessorRequestsCommand {
  if (values.name !== undefined || values.origin !== undefined) throw new UsageError('--name and --origin are for merchant create');
  if (verb === undefined) return { command: 'processor-requests list', json: values.json };
  if (verb !== 'retry' || rest.length !== 1) throw new UsageError('unknown command');
  const id = rest[0]!;
  if (!UUID.test(id)) throw new UsageError(`${id} is not a processor request id (a UUID, as the list shows)`);
  return { command: 'processor-requests retry', id: id.toLowerCase() };
}
