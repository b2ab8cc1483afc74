import { parseArgs } from 'node:util';
import { OriginSchema } from '@svc/protocol';

/**
 * The operator CLI: `pnpm svc merchant create --name NAME [--origin URL ...] [--json]`.
 * stdout carries only the result; diagnostics go to stderr. Exit 2 for a usage error, 1 for a failure.
 */
export const USAGE = `usage: svc merchant create --name NAME [--origin URL ...] [--json]

  --name NAME      the merchant's business name (shown to consumers)
  --origin URL     a browser origin allowed to use the client ID (repeatable), e.g. https://shop.example.com
  --json           print only the credentials as JSON

Credentials are shown once: keys are stored only as hashes.`;

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CreateMerchantCommand {
  command: 'merchant create';
  name: string;
  origins: string[];
  json: boolean;
}

export function parseCommand(argv: string[]): CreateMerchantCommand {
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
