import { pino } from 'pino';
import { openStorage } from '../db/storage';
import { EnvError, loadEnv } from '../env';
import { createLogger } from '../logger';
import { provisionMerchant } from '../modules/merchants';
import { parseCommand, USAGE, UsageError, type CreateMerchantCommand } from './command';

/** Entry point of `pnpm svc`; see command.ts for the commands. */
async function run(argv: string[]): Promise<number> {
  let command: CreateMerchantCommand;
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
    const created = await provisionMerchant(storage.db, { name: command.name, origins: command.origins });
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
  } finally {
    await storage.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof EnvError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`svc: ${message}\n`);
    process.exit(1);
  },
);
