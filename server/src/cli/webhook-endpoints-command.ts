import { parseArgs } from 'node:util';
import { CreateWebhookEndpointRequestSchema, ListEventsQuerySchema, UpdateWebhookEndpointRequestSchema, WEBHOOK_EVENT_TYPE_NAMES } from '@svc/protocol';
import type { Clock } from '../clock';
import type { Database } from '../db/client';
import type { Env } from '../env';
import { ApiError } from '../errors';
import { eventPage } from '../modules/events';
import { createWebhookEndpoint, deleteWebhookEndpoint, listWebhookEndpoints, updateWebhookEndpoint } from '../modules/webhook-endpoints';
import { printable, printableJson } from './printable';

/** The commands' lines in the CLI's usage, and their help. */
export const WEBHOOK_ENDPOINTS_SYNOPSIS = `       svc webhook-endpoints list --merchant ID [--json]
       svc webhook-endpoints add --merchant ID --url URL --events TYPE,... [--description TEXT] [--json]
       svc webhook-endpoints update --merchant ID ENDPOINT_ID [--url URL] [--events TYPE,...] [--description TEXT] [--disable | --enable] [--json]
       svc webhook-endpoints remove --merchant ID ENDPOINT_ID [--json]
       svc events --merchant ID [--type TYPE] [--limit N] [--starting-after EVENT_ID] [--json]`;
export const WEBHOOK_ENDPOINTS_HELP = `webhook-endpoints, events
  --events TYPE,...  the event types the endpoint gets, comma-separated, or * for all:
                     ${WEBHOOK_EVENT_TYPE_NAMES.join(', ')}
  --url URL          checked as a callbackURL is (https in production, a public address, no credentials)
  add prints the endpoint's own whsec_ signing secret once. A disabled endpoint gets nothing until enabled again.
  events lists the merchant's events of the last 30 days, newest first, a page at a time.`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type WebhookEndpointsCommand =
  | { command: 'webhook-endpoints list'; merchantId: string; json: boolean }
  | { command: 'webhook-endpoints add'; merchantId: string; input: unknown; json: boolean }
  | { command: 'webhook-endpoints update'; merchantId: string; endpointId: string; input: unknown; json: boolean }
  | { command: 'webhook-endpoints remove'; merchantId: string; endpointId: string; json: boolean }
  | { command: 'events'; merchantId: string; query: Record<string, string>; json: boolean };

export function isWebhookEndpointsCommand(argv: string[]): boolean {
  return argv[0] === 'webhook-endpoints' || argv[0] === 'events';
}

/** `svc webhook-endpoints …` and `svc events …`. Throws `usage(message)`'s error when wrong. */
export function parseWebhookEndpointsCommand(argv: string[], usage: (message: string) => Error): WebhookEndpointsCommand {
  const verb = argv[0] === 'events' ? null : argv[1];
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv.slice(verb === null ? 1 : 2),
      allowPositionals: true,
      options: {
        merchant: { type: 'string' },
        url: { type: 'string' },
        events: { type: 'string' },
        description: { type: 'string' },
        disable: { type: 'boolean', default: false },
        enable: { type: 'boolean', default: false },
        type: { type: 'string' },
        limit: { type: 'string' },
        'starting-after': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw usage((error as Error).message);
  }
  if (!values.merchant || !UUID.test(values.merchant)) throw usage('--merchant ID is required (the merchantId merchant create printed)');
  const merchantId = values.merchant.toLowerCase();
  const json = values.json;
  const events = values.events?.split(',').map((type) => type.trim());
  const checked = <T>(result: { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }): T => {
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    const field = String(issue?.path[0] ?? '');
    const option = { enabledEvents: '--events', startingAfter: '--starting-after' }[field] ?? `--${field}`;
    throw usage(`${option}: ${issue?.message ?? 'not accepted'}`);
  };
  const endpointId = () => {
    if (positionals.length !== 1 || !UUID.test(positionals[0]!)) throw usage('name one ENDPOINT_ID (the endpointId add printed)');
    return positionals[0]!.toLowerCase();
  };
  if (verb === null) {
    if (positionals.length > 0) throw usage(`unexpected ${positionals.join(' ')}`);
    const query = Object.fromEntries(
      Object.entries({ type: values.type, limit: values.limit, startingAfter: values['starting-after'] }).filter(([, v]) => v !== undefined),
    ) as Record<string, string>;
    checked(ListEventsQuerySchema.safeParse(query));
    return { command: 'events', merchantId, query, json };
  }
  switch (verb) {
    case 'list':
      if (positionals.length > 0) throw usage(`unexpected ${positionals.join(' ')}`);
      return { command: 'webhook-endpoints list', merchantId, json };
    case 'add': {
      if (positionals.length > 0) throw usage(`unexpected ${positionals.join(' ')}`);
      if (!values.url || !events) throw usage('add needs --url and --events');
      const input = { url: values.url, enabledEvents: events, ...(values.description !== undefined && { description: values.description }) };
      checked(CreateWebhookEndpointRequestSchema.safeParse(input));
      return { command: 'webhook-endpoints add', merchantId, input, json };
    }
    case 'update': {
      const id = endpointId();
      if (values.disable && values.enable) throw usage('give --disable or --enable, not both');
      const input = {
        ...(values.url !== undefined && { url: values.url }),
        ...(events && { enabledEvents: events }),
        ...(values.description !== undefined && { description: values.description }),
        ...((values.disable || values.enable) && { disabled: values.disable }),
      };
      if (Object.keys(input).length === 0) throw usage('update needs a change: --url, --events, --description, --disable or --enable');
      checked(UpdateWebhookEndpointRequestSchema.safeParse(input));
      return { command: 'webhook-endpoints update', merchantId, endpointId: id, input, json };
    }
    case 'remove':
      return { command: 'webhook-endpoints remove', merchantId, endpointId: endpointId(), json };
    default:
      throw usage(`unknown command webhook-endpoints ${verb ?? ''}`);
  }
}

/** Runs the command against the database as the operator; a refusal is one line on stderr and exit 1. */
export async function runWebhookEndpointsCommand(db: Database, env: Env, clock: Clock, command: WebhookEndpointsCommand): Promise<number> {
  let result: unknown;
  let text: string;
  try {
    const now = clock.now();
    const change = { actor: { kind: 'operator' as const }, at: now };
    switch (command.command) {
      case 'webhook-endpoints list': {
        const { data } = await listWebhookEndpoints(db, command.merchantId);
        result = { data };
        text = data.length === 0 ? '(no webhook endpoints)\n' : data.map((e) => `${endpointLine(e)}\n`).join('');
        break;
      }
      case 'webhook-endpoints add': {
        const input = CreateWebhookEndpointRequestSchema.parse(command.input);
        const created = await db.transaction((tx) => createWebhookEndpoint(tx, env, command.merchantId, input, change));
        result = created;
        text = `${endpointLine(created.endpoint)}\nsecret: ${created.secret}\nStore the secret now: it is not shown again.\n`;
        break;
      }
      case 'webhook-endpoints update': {
        const input = UpdateWebhookEndpointRequestSchema.parse(command.input);
        const { endpointId } = command;
        const endpoint = await db.transaction((tx) => updateWebhookEndpoint(tx, env, command.merchantId, endpointId, input, change));
        result = endpoint;
        text = `${endpointLine(endpoint)}\n`;
        break;
      }
      case 'webhook-endpoints remove':
        result = await db.transaction((tx) => deleteWebhookEndpoint(tx, command.merchantId, command.endpointId, change));
        text = `removed ${command.endpointId}\n`;
        break;
      case 'events': {
        const page = await eventPage(db, command.merchantId, ListEventsQuerySchema.parse(command.query), now);
        result = page;
        text =
          page.data.map((e) => `${e.createdAt} ${e.eventId} ${e.type} ${printable(e.data.transaction.TransactionNumber)}\n`).join('') +
          (page.nextCursor ? `more: --starting-after ${page.nextCursor}\n` : '');
        break;
      }
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    process.stderr.write(`svc: ${error.detail}\n`);
    return 1;
  }
  process.stdout.write(command.json ? `${printableJson(result)}\n` : text);
  return 0;
}

function endpointLine(e: { endpointId: string; url: string; enabledEvents: string[]; description: string | null; disabled: boolean }): string {
  return [
    e.endpointId,
    printable(e.url),
    e.enabledEvents.join(','),
    ...(e.disabled ? ['(disabled)'] : []),
    ...(e.description ? [printable(e.description)] : []),
  ].join(' ');
}
