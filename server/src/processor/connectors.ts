import type { Env } from '../env';
import { SANDBOX_TEST_CARDS } from '@svc/protocol';
import type { PaymentDeclineCode, PaymentProcessor, ProcessorCapabilities, ProcessorKind } from './processor';
import { ADYEN_DECLINES } from './adyen/adyen-declines';
import { ADYEN_CAPABILITIES, AdyenProcessor } from './adyen/adyen-processor';
import { SANDBOX_CAPABILITIES, SandboxProcessor } from './sandbox-processor';
import { STRIPE_DECLINES } from './stripe/stripe-declines';
import { STRIPE_CAPABILITIES, StripeProcessor } from './stripe/stripe-processor';

/** Starting with a processor configuration that cannot work (production on the sandbox, a connector not built). */
export class ProcessorConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProcessorConfigError';
  }
}

/**
 * An account's credentials, as the operator's environment or a merchant's stored connection gives them: for Stripe
 * `secretKey` (and `webhookSecret`), for Adyen `apiKey`, `merchantAccount`, `hmacKey`. API base URLs are never among
 * them: they come from the operator's environment only.
 */
export type ProcessorCredentials = Readonly<Record<string, string>>;

/** Which credentials each kind of account needs, in the order `svc processor connect` asks for them. */
export const CREDENTIAL_FIELDS: { readonly [K in ProcessorKind]: readonly string[] } = {
  sandbox: [],
  stripe: ['secretKey', 'webhookSecret'],
  adyen: ['apiKey', 'merchantAccount', 'hmacKey'],
};

/**
 * How each connector is made from an account's credentials and the operator's environment: one line per connector
 * (docs/design/processor-requests.md#writing-a-connector).
 */
const CONNECTORS: { readonly [K in ProcessorKind]: (credentials: ProcessorCredentials, env: Env) => PaymentProcessor } = {
  sandbox: () => new SandboxProcessor(),
  stripe: (c, env) =>
    new StripeProcessor(
      { secretKey: need(c, 'stripe', 'secretKey'), apiBase: env.STRIPE_API_BASE, serviceBaseUrl: env.PUBLIC_BASE_URL },
      { timeoutMs: env.PROCESSOR_TIMEOUT_MS },
    ),
  adyen: (c, env) =>
    new AdyenProcessor({
      apiKey: need(c, 'adyen', 'apiKey'),
      merchantAccount: need(c, 'adyen', 'merchantAccount'),
      checkoutUrl: env.ADYEN_CHECKOUT_URL,
      returnUrl: env.PUBLIC_BASE_URL,
    }),
};

/**
 * What each connector can do and how its declines read, for `/docs` (the capability table) and `/docs/errors` (the
 * decline mapping): its own code (a sandbox test card, a Stripe `decline_code`) → the service's.
 */
export const CONNECTOR_PROFILES: {
  readonly [K in ProcessorKind]: { name: string; capabilities: ProcessorCapabilities; declines: Readonly<Record<string, PaymentDeclineCode>> };
} = {
  sandbox: {
    name: 'Sandbox (test cards)',
    capabilities: SANDBOX_CAPABILITIES,
    declines: Object.fromEntries(
      SANDBOX_TEST_CARDS.flatMap((card) =>
        card.outcome === 'card_declined' || card.outcome === 'insufficient_funds' ? [[`card ${card.number}`, card.outcome] as const] : [],
      ),
    ),
  },
  stripe: { name: 'Stripe', capabilities: STRIPE_CAPABILITIES, declines: STRIPE_DECLINES },
  adyen: {
    name: 'Adyen',
    capabilities: ADYEN_CAPABILITIES,
    declines: Object.fromEntries(ADYEN_DECLINES.map((d) => [`refusalReasonCode ${d.refusalReasonCode} (${d.refusalReason})`, d.code])),
  },
};

/** A connector of `kind` on the account `credentials`. */
export function connectorFor(kind: ProcessorKind, credentials: ProcessorCredentials, env: Env): PaymentProcessor {
  return CONNECTORS[kind](credentials, env);
}

/** The default account's credentials, from the operator's environment. */
export function defaultCredentials(env: Env, kind: ProcessorKind): ProcessorCredentials {
  const fields: Record<ProcessorKind, Record<string, string | undefined>> = {
    sandbox: {},
    stripe: { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET },
    adyen: { apiKey: env.ADYEN_API_KEY, merchantAccount: env.ADYEN_MERCHANT_ACCOUNT, hmacKey: env.ADYEN_HMAC_KEY },
  };
  return Object.fromEntries(Object.entries(fields[kind]).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function need(credentials: ProcessorCredentials, kind: ProcessorKind, field: string): string {
  const value = credentials[field];
  if (!value) throw new ProcessorConfigError(`the ${kind} account has no ${field}`);
  return value;
}
