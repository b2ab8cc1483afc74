import type { Env } from '../env';
import type { PaymentProcessor } from './processor';
import { SandboxProcessor } from './sandbox-processor';

/** Starting in production with no real processor configured. */
export class ProcessorConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProcessorConfigError';
  }
}

/**
 * The processor a started service uses. The sandbox processor approves the public test cards, so it is the
 * sandbox's only: `SVC_MODE=production` refuses to start with it. A real acquirer implements the
 * `PaymentProcessor` port (processor.ts) and is returned here for production.
 */
export function processorForMode(env: Pick<Env, 'SVC_MODE'>): PaymentProcessor {
  if (env.SVC_MODE === 'sandbox') return new SandboxProcessor();
  throw new ProcessorConfigError(
    'SVC_MODE=production needs a payment processor, and none is configured: the sandbox processor approves test cards, so it is refused in production. ' +
      'Implement the PaymentProcessor port (server/src/processor/processor.ts) for your acquirer and return it from processorForMode (server/src/processor/processor-for-mode.ts).',
  );
}
