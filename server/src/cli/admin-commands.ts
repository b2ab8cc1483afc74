import { parseArgs } from 'node:util';
import { CREATABLE_CREDENTIAL_KINDS, MAX_SECRET_OVERLAP_S, OriginSchema, PAYMENT_METHODS, RemovedOriginSchema, type PaymentMethodName } from '@svc/protocol';
import { UsageError } from './usage-error';

/**
 * The operator's commands on one merchant's credentials and settings (`--merchant ID` each): list, create and revoke
 * credentials, a client ID's allowed origins, the HMAC secret roll, the payment methods its widgets offer, and the
 * audit log. Each change is audit-logged as the operator's.
 */
export const ADMIN_USAGE = `       svc credentials list --merchant ID [--json]
       svc credentials create --merchant ID --kind merchant_key|branch_key|client [--branch ID] [--origin URL ...] [--json]
       svc credentials revoke --merchant ID CREDENTIAL_ID [--json]
       svc origins add|remove --merchant ID CREDENTIAL_ID URL [--json]
       svc secret roll --merchant ID [--overlap SECONDS] [--json]
       svc merchant payment-methods --merchant ID [card,paypal,applepay,googlepay] [--json]
       svc audit --merchant ID [--limit N] [--starting-after CURSOR] [--json]`;

export const ADMIN_HELP = `credentials, origins, secret, payment-methods, audit
  --merchant ID    the merchant's id (merchantId, as merchant create printed it)
  A key or secret is printed once, by create and by secret roll; listings show a key's prefix and last four
  characters only. --overlap is how long the previous secret still signs callbacks beside the new one (default
  86400 seconds). Every change takes effect on every instance at once and is written to the merchant's audit log.`;

export type AdminCommand =
  | { command: 'credentials list'; merchantId: string; json: boolean }
  | {
      command: 'credentials create';
      merchantId: string;
      kind: (typeof CREATABLE_CREDENTIAL_KINDS)[number];
      branchId: string | undefined;
      origins: string[] | undefined;
      json: boolean;
    }
  | { command: 'credentials revoke'; merchantId: string; credentialId: string; json: boolean }
  | { command: 'origins add' | 'origins remove'; merchantId: string; credentialId: string; origin: string; json: boolean }
  | { command: 'secret roll'; merchantId: string; overlapSeconds: number; json: boolean }
  | { command: 'payment-methods'; merchantId: string; paymentMethods: PaymentMethodName[] | null; json: boolean }
  | { command: 'audit'; merchantId: string; limit: number; startingAfter: string | undefined; json: boolean };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `argv` names one of these commands (the noun, or `merchant payment-methods`). */
export function isAdminCommand(argv: string[]): boolean {
  const [noun, verb] = argv;
  return noun === 'credentials' || noun === 'origins' || noun === 'secret' || noun === 'audit' || (noun === 'merchant' && verb === 'payment-methods');
}

type Option = 'kind' | 'branch' | 'origin' | 'overlap' | 'limit' | 'starting-after';
const OPTION_TYPES = {
  kind: { type: 'string' },
  branch: { type: 'string' },
  origin: { type: 'string', multiple: true },
  overlap: { type: 'string' },
  limit: { type: 'string' },
  'starting-after': { type: 'string' },
} as const;

/** The command, its positionals (after the noun and verb) and the options it takes; anything else is a usage error. */
const SHAPES: Record<string, { positionals: number | [number, number]; options: Option[] }> = {
  'credentials list': { positionals: 0, options: [] },
  'credentials create': { positionals: 0, options: ['kind', 'branch', 'origin'] },
  'credentials revoke': { positionals: 1, options: [] },
  'origins add': { positionals: 2, options: [] },
  'origins remove': { positionals: 2, options: [] },
  'secret roll': { positionals: 0, options: ['overlap'] },
  'merchant payment-methods': { positionals: [0, 1], options: [] },
  audit: { positionals: 0, options: ['limit', 'starting-after'] },
};

export function parseAdminCommand(argv: string[]): AdminCommand {
  const noun = argv[0]!;
  const name = noun === 'audit' ? 'audit' : `${noun} ${argv[1] ?? ''}`;
  const shape = SHAPES[name];
  if (!shape) throw new UsageError('unknown command');
  const options: Record<string, (typeof OPTION_TYPES)[Option] | { type: 'string' } | { type: 'boolean'; default: boolean }> = {
    merchant: { type: 'string' },
    json: { type: 'boolean', default: false },
  };
  for (const option of shape.options) options[option] = OPTION_TYPES[option];
  let parsed;
  try {
    parsed = parseArgs({ args: argv.slice(noun === 'audit' ? 1 : 2), allowPositionals: true, options });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>;
  const args = parsed.positionals;
  const [min, max] = Array.isArray(shape.positionals) ? shape.positionals : [shape.positionals, shape.positionals];
  if (args.length < min || args.length > max) throw new UsageError(`${name} takes ${max === min ? min : `${min} to ${max}`} argument(s)`);
  const merchantId = uuidOf('--merchant', values.merchant, 'merchant id');
  const json = values.json === true;
  switch (name) {
    case 'credentials list':
      return { command: 'credentials list', merchantId, json };
    case 'credentials create':
      return createCommand(merchantId, values, json);
    case 'credentials revoke':
      return { command: 'credentials revoke', merchantId, credentialId: uuidOf('CREDENTIAL_ID', args[0], 'credential id'), json };
    case 'origins add':
    case 'origins remove':
      return {
        command: name,
        merchantId,
        credentialId: uuidOf('CREDENTIAL_ID', args[0], 'credential id'),
        origin: name === 'origins add' ? originOf(args[1]!) : removedOriginOf(args[1]!),
        json,
      };
    case 'secret roll':
      return { command: 'secret roll', merchantId, overlapSeconds: integerOf('--overlap', values.overlap, 0, MAX_SECRET_OVERLAP_S, 86_400), json };
    case 'merchant payment-methods':
      return { command: 'payment-methods', merchantId, paymentMethods: args[0] === undefined ? null : paymentMethodsOf(args[0]), json };
    default: {
      const startingAfter = values['starting-after'];
      if (startingAfter !== undefined && !/^[1-9][0-9]{0,15}$/.test(String(startingAfter))) {
        throw new UsageError('--starting-after is the nextCursor an earlier page printed');
      }
      return {
        command: 'audit',
        merchantId,
        limit: integerOf('--limit', values.limit, 1, 100, 20),
        startingAfter: startingAfter === undefined ? undefined : String(startingAfter),
        json,
      };
    }
  }
}

function createCommand(merchantId: string, values: Record<string, unknown>, json: boolean): AdminCommand {
  const kind = values.kind;
  if (!CREATABLE_CREDENTIAL_KINDS.includes(kind as never)) throw new UsageError(`--kind is one of ${CREATABLE_CREDENTIAL_KINDS.join(', ')}`);
  const branchId = values.branch === undefined ? undefined : uuidOf('--branch', values.branch, 'branch id');
  if (kind === 'branch_key' && branchId === undefined) throw new UsageError('--branch is required for a branch key');
  if (kind === 'merchant_key' && branchId !== undefined) throw new UsageError('a merchant key acts for every branch: leave --branch out');
  const origins = values.origin === undefined ? undefined : [...new Set((values.origin as string[]).map(originOf))];
  if (kind !== 'client' && origins !== undefined) throw new UsageError('--origin is for a client ID');
  return { command: 'credentials create', merchantId, kind: kind as (typeof CREATABLE_CREDENTIAL_KINDS)[number], branchId, origins, json };
}

function uuidOf(what: string, value: unknown, name: string): string {
  if (value === undefined) throw new UsageError(`${what} is required`);
  if (typeof value !== 'string' || !UUID.test(value)) throw new UsageError(`${what} ${String(value)} is not a ${name} (a UUID)`);
  return value.toLowerCase();
}

function originOf(value: string): string {
  const origin = OriginSchema.safeParse(value);
  if (!origin.success) throw new UsageError(`${value}: ${origin.error.issues[0]?.message ?? 'not an origin'}`);
  return origin.data;
}

/** An origin to remove, as the list shows it (an entry stored before today's origin rule included). */
function removedOriginOf(value: string): string {
  const origin = RemovedOriginSchema.safeParse(value);
  if (!origin.success) throw new UsageError(`${value}: ${origin.error.issues[0]?.message ?? 'not an origin'}`);
  return origin.data;
}

function integerOf(what: string, value: unknown, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(String(value)) || number < min || number > max) throw new UsageError(`${what} is a whole number from ${min} to ${max}`);
  return number;
}

function paymentMethodsOf(list: string): PaymentMethodName[] {
  const names = list.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !PAYMENT_METHODS.includes(name as PaymentMethodName));
  if (unknown.length > 0 || names.length === 0) throw new UsageError(`payment methods are a comma-separated list of ${PAYMENT_METHODS.join(', ')}`);
  return PAYMENT_METHODS.filter((method) => names.includes(method));
}
