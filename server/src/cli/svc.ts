import { pino } from 'pino';
import { systemClock, type Clock } from '../clock';
import type { Database } from '../db/client';
import { openStorage } from '../db/storage';
import { EnvError, loadEnv, type Env } from '../env';
import { createLogger } from '../logger';
import { provisionMerchant, recordedPublicBaseUrl } from '../modules/merchants';
import { listNeedingReview, retryNeedingReview } from '../modules/processor-requests';
import { SandboxClock } from '../modules/sandbox';
import { runAdminCommand } from './admin-actions';
import { parseCommand, USAGE, UsageError, type Command, type CreateMerchantCommand, type ProcessorRequestsCommand } from './command';
import { runMerchantSettings } from './merchant-settings-command';
import { runProcessorConnect } from './processor-connect-command';
import { printable, printableJson } from './printable';

/** Entry point of `pnpm svc`; see command.ts for the commands. */
async function run(argv: string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`svc: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  const env = loadEnv();
  const logger = createLogger({ level: 'warn', destination: pino.destination({ dest: 2, sync: true }) });
  const storage = await openStorage(env, logger);
  try {
    if (command.command === 'merchant create') return await createMerchant(storage.db, env, command);
    if (command.command === 'merchant settings') return await runMerchantSettings(storage.db, env, serviceClock(storage.db, env), command);
    if (command.command === 'processor connect') return await runProcessorConnect(storage.db, env, serviceClock(storage.db, env), command);
    if (command.command === 'processor-requests list' || command.command === 'processor-requests retry') {
      return await processorRequests(storage.db, env, command);
    }
    return await runAdminCommand(storage.db, serviceClock(storage.db, env), command, (text) => process.stdout.write(text));
  } finally {
    await storage.close();
  }
}

async function createMerchant(db: Database, env: Env, command: CreateMerchantCommand): Promise<number> {
  // The sticker URL is on the base URL the service answers on: the CLI's own PUBLIC_BASE_URL when it names one, else the
  // one the service recorded when it started on this database (the CLI's default, localhost, is rarely it).
  const publicBaseUrl = env.PUBLIC_BASE_URL_SET ? env.PUBLIC_BASE_URL : ((await recordedPublicBaseUrl(db)) ?? env.PUBLIC_BASE_URL);
  const created = await provisionMerchant(db, { name: command.name, origins: command.origins, publicBaseUrl });
  if (command.json) {
    process.stdout.write(`${JSON.stringify(created)}\n`);
  } else {
    process.stdout.write(
      [
        `Created merchant "${command.name}". Store these now: they are not shown again.`,
        '',
        ...Object.entries(created).map(([key, value]) => `  ${key.padEnd(13)} ${value}`),
        '',
        `Client ID origins: ${command.origins.length ? command.origins.join(', ') : '(none: add --origin to use the SDKs)'}`,
        '',
      ].join('\n'),
    );
  }
  return 0;
}

/** The requests the worker gave up on (needs_review), or one of them put back in flight for the worker. */
async function processorRequests(db: Database, env: Env, command: ProcessorRequestsCommand): Promise<number> {
  if (command.command === 'processor-requests retry') {
    const clock = serviceClock(db, env);
    await clock.refresh?.();
    const retried = await retryNeedingReview(db, command.id, clock.now());
    if (!retried) {
      process.stderr.write(`svc: no processor request ${command.id} needs review (list them with \`svc processor-requests\`)\n`);
      return 1;
    }
    process.stdout.write(`Processor request ${retried.id} (${retried.operation}) is in flight again: the worker asks the processor on its next tick.\n`);
    return 0;
  }
  const requests = await listNeedingReview(db);
  if (command.json) {
    process.stdout.write(`${printableJson(requests)}\n`);
    return 0;
  }
  if (requests.length === 0) {
    process.stdout.write('No processor request needs review.\n');
    return 0;
  }
  // Stored text is printed with its control characters escaped: a processor's error message cannot drive the terminal.
  for (const request of requests) {
    const on = request.transactionNumber ? ` on transaction ${printable(request.transactionNumber)}` : '';
    process.stdout.write(
      [
        `${request.id}  ${printable(request.operation)} of ${request.amountCents} cents ${printable(request.currency)}${on}`,
        `  request key ${printable(request.requestKey)}, asked ${request.createdAt.toISOString()}, ${request.attempts} attempts`,
        `  last error: ${request.lastError === null ? '(none recorded)' : printable(request.lastError)}`,
        '',
      ].join('\n'),
    );
  }
  return 0;
}

/** The service's clock: in sandbox mode the shared test clock, which may be ahead of the wall clock. */
function serviceClock(db: Database, env: Env): Clock {
  return env.SVC_MODE === 'sandbox' ? new SandboxClock(db) : systemClock;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof EnvError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`svc: ${message}\n`);
    process.exit(1);
  },
);
