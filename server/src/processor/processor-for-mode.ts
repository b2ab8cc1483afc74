import type { Env } from '../env';
import { connectorFor, defaultCredentials, ProcessorConfigError } from './connectors';
import type { PaymentProcessor } from './processor';

export { ProcessorConfigError };

/**
 * The default account's processor, as PROCESSOR names it (sandbox mode: the sandbox processor unless it names
 * another). The sandbox processor approves the public test cards, so it is the sandbox's only: `SVC_MODE=production`
 * refuses to start with it, or with no PROCESSOR at all.
 */
export function processorForMode(env: Env): PaymentProcessor {
  const kind = env.PROCESSOR ?? (env.SVC_MODE === 'sandbox' ? 'sandbox' : undefined);
  if (kind === undefined || (kind === 'sandbox' && env.SVC_MODE === 'production')) {
    throw new ProcessorConfigError(
      `SVC_MODE=production needs a payment processor, and ${kind ? 'PROCESSOR=sandbox is' : 'none is'} configured: the sandbox processor approves test cards, so it is refused in production. ` +
        'Set PROCESSOR=stripe (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET) or PROCESSOR=adyen (ADYEN_API_KEY, ADYEN_MERCHANT_ACCOUNT, ADYEN_HMAC_KEY): docs/operating.md#choosing-a-processor.',
    );
  }
  return connectorFor(kind, defaultCredentials(env, kind), env);
}
