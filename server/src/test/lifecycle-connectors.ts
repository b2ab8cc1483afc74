/**
 * The connectors the model-based lifecycle test (`lifecycle.model.test.ts`) runs on, each with its own behaviour:
 * the sandbox processor (answers at once), the Stripe connector on localstripe (answers at once, captures an intent
 * once), and the Adyen connector on the msw double of its published API (captures, refunds and cancels answered
 * `received`, their outcomes told by webhook: duplicated, out of order, some before the call's answer is recorded).
 * Each says what the model must expect of it (`rules`), makes calls unanswered on demand, delivers what it owes
 * (`settle`), and records every payment call, so a run can check each payment was charged once at the processor.
 */
import type { Currency, Transaction } from '@svc/protocol';
import { ADYEN_CAPABILITIES, AdyenProcessor } from '../processor/adyen/adyen-processor';
import type { PaymentProcessor, ProcessorCapabilities } from '../processor/processor';
import { SANDBOX_CAPABILITIES } from '../processor/sandbox-processor';
import { STRIPE_CAPABILITIES, StripeProcessor } from '../processor/stripe/stripe-processor';
import {
  ADYEN_TEST_ACCOUNT,
  ADYEN_TEST_HMAC_KEY,
  adyenDescriptions,
  adyenOutcomeEvent,
  modificationsSince,
  startAdyenDouble,
  tellAdyen,
  type AdyenDouble,
  type AdyenModification,
} from './adyen-double';
import { localstripeAvailable, startLocalstripe, type Localstripe } from './localstripe';
import { RecordingProcessor } from './recording-processor';

/** The test cards and wallet the model pays with; what each does depends on the connector. */
export type PayMethod = 'alpha' | 'beta' | 'paypal' | 'declined' | 'insufficient' | 'failure' | 'refundDeclined';
/** What a connector does with a payment: approve it (its refunds declined, for the sandbox's card), decline it, fail, or refuse a wallet. */
export type PayOutcome = 'approved' | 'refundsDeclined' | 'card_declined' | 'insufficient_funds' | 'processor_failure' | 'processor_unsupported';

/** What the model expects of a connector. */
export interface ConnectorRules {
  pays: Record<PayMethod, PayOutcome>;
  /** The hold an approved authorization paid with `method` has: `authorization.processor` and `supportsCloseAuth`. */
  hold(method: PayMethod): { processor: string; supportsCloseAuth: boolean };
  /** The connector's own declaration (its `*_CAPABILITIES`): the model refuses what it does not offer. */
  capabilities: Pick<ProcessorCapabilities, 'multipleCaptures' | 'reauthorize' | 'closeAuth' | 'wallets'>;
  /** Captures and refunds answer 202 (pending) until their outcome is told. */
  async: boolean;
}

/** A payment call the connector was asked for (sale, authorization), and its answer. */
export interface PaymentCall {
  transactionNumber: string;
  requestKey: string;
  outcome: string;
  reference: string | null;
}

type App = { request(path: string, init: { body: unknown }): Promise<Response> };

export interface LifecycleConnector {
  name: string;
  /** Model runs: a connector that calls a real peer is slower. */
  runs: number;
  /** Whether it can run here (its peer is present); when not, it has printed why. */
  available: boolean;
  rules: ConnectorRules;
  /** The app's environment for it (the Adyen webhook's HMAC key). */
  env: Record<string, string>;
  /** Starts its peer; the processor the app is given. */
  start(): Promise<PaymentProcessor>;
  stop(): Promise<void>;
  /** Every call from now on fails as an acquirer that cannot be reached does (nothing happens there). */
  setUnreachable(on: boolean): void;
  /**
   * A capture or a refund, asked with `call`: an asynchronous connector may tell the outcome before the call's answer
   * reaches the service (half the time).
   */
  asking<T>(kind: 'captures' | 'refunds', call: () => Promise<T>, app: App, random: () => number): Promise<T>;
  /** Delivers what the processor owes: each outcome not told yet, 1 to 3 times, in any order, and an old one again. */
  settle(app: App, random: () => number): Promise<void>;
  /** The sales and authorizations asked, in order. */
  payments: PaymentCall[];
  /** The request keys of the payments reversed. */
  reversed: string[];
  /** What the processor's side says of an approved payment `reference`, against the books (`tx`): the differences. */
  checkAtProcessor(reference: string, tx: Transaction): Promise<string[]>;
}

/** Records the sale, authorization and reversal calls of `processor` (its own methods wrapped, on the instance). */
function recordPayments(processor: PaymentProcessor, payments: PaymentCall[], reversed: string[]): void {
  for (const name of ['sale', 'authorize'] as const) {
    const call = processor[name].bind(processor);
    processor[name] = async (method, amountCents, currency, requestKey, details) => {
      const entry: PaymentCall = { transactionNumber: details.transactionNumber, requestKey, outcome: 'unanswered', reference: null };
      payments.push(entry);
      const answer = await call(method, amountCents, currency, requestKey, details);
      entry.outcome = answer.outcome;
      entry.reference = answer.outcome === 'approved' ? answer.reference : null;
      return answer;
    };
  }
  const reverse = processor.reverse.bind(processor);
  processor.reverse = async (requestKey) => {
    reversed.push(requestKey);
    return reverse(requestKey);
  };
}

const SYNC = {
  async asking<T>(_kind: 'captures' | 'refunds', call: () => Promise<T>): Promise<T> {
    return call();
  },
  async settle(): Promise<void> {},
};

export function sandboxConnector(): LifecycleConnector {
  const processor = new RecordingProcessor();
  const payments: PaymentCall[] = [];
  const reversed: string[] = [];
  recordPayments(processor, payments, reversed);
  return {
    name: 'the sandbox processor',
    runs: Number(process.env.LIFECYCLE_MODEL_RUNS) || 40,
    available: true,
    rules: {
      pays: {
        alpha: 'approved',
        beta: 'approved',
        paypal: 'approved',
        declined: 'card_declined',
        insufficient: 'insufficient_funds',
        failure: 'processor_failure',
        refundDeclined: 'refundsDeclined',
      },
      // The sandbox's second acquirer (beta) cannot close an authorization.
      hold: (method) => (method === 'beta' ? { processor: 'beta', supportsCloseAuth: false } : { processor: 'alpha', supportsCloseAuth: true }),
      capabilities: SANDBOX_CAPABILITIES,
      async: false,
    },
    env: {},
    start: async () => processor,
    stop: async () => {},
    setUnreachable: (on) => (processor.unreachable = on),
    ...SYNC,
    payments,
    reversed,
    checkAtProcessor: async () => [],
  };
}

/** The Stripe connector whose calls fail before reaching Stripe while `unreachable`. */
class ReachableStripe extends StripeProcessor {
  unreachable = false;
  #reach(): void {
    if (this.unreachable) throw new Error('connect ECONNREFUSED (test: Stripe is unreachable)');
  }
  override async capture(reference: string, amountCents: number, currency: Currency, requestKey: string) {
    this.#reach();
    return super.capture(reference, amountCents, currency, requestKey);
  }
  override async refund(reference: string, amountCents: number, requestKey: string) {
    this.#reach();
    return super.refund(reference, amountCents, requestKey);
  }
  override async release(reference: string, amountCents: number, requestKey: string) {
    this.#reach();
    return super.release(reference, amountCents, requestKey);
  }
}

type Intent = {
  status: string;
  amount: number;
  metadata: Record<string, string>;
  latest_charge: { amount: number; amount_refunded: number; captured: boolean } | null;
};

export function stripeConnector(): LifecycleConnector {
  const available = localstripeAvailable();
  const payments: PaymentCall[] = [];
  const reversed: string[] = [];
  let localstripe: Localstripe | null = null;
  let processor: ReachableStripe | null = null;
  const secretKey = 'sk_test_lifecycle';
  return {
    name: 'the Stripe connector (localstripe)',
    runs: Number(process.env.LIFECYCLE_MODEL_RUNS) || 25,
    available,
    rules: {
      // localstripe declines these three cards when their method is attached, all as card_declined; it approves the rest.
      pays: {
        alpha: 'approved',
        beta: 'approved',
        paypal: 'processor_unsupported',
        declined: 'card_declined',
        insufficient: 'card_declined',
        failure: 'card_declined',
        refundDeclined: 'approved',
      },
      hold: () => ({ processor: 'stripe', supportsCloseAuth: false }),
      capabilities: STRIPE_CAPABILITIES,
      async: false,
    },
    env: {},
    async start() {
      localstripe = await startLocalstripe();
      processor = new ReachableStripe({ secretKey, apiBase: localstripe.url });
      recordPayments(processor, payments, reversed);
      return processor;
    },
    stop: async () => localstripe?.stop(),
    setUnreachable: (on) => (processor!.unreachable = on),
    ...SYNC,
    payments,
    reversed,
    /** The PaymentIntent: made for this transaction, and what Stripe kept is what the books settled less what they refunded. */
    async checkAtProcessor(reference, tx) {
      const res = await fetch(`${localstripe!.url}/v1/payment_intents/${reference}?expand[]=latest_charge`, {
        headers: { authorization: `Bearer ${secretKey}` },
      });
      const intent = (await res.json()) as Intent;
      const problems: string[] = [];
      if (intent.metadata.transactionNumber !== tx.TransactionNumber) problems.push(`${reference} names ${intent.metadata.transactionNumber}`);
      const auth = tx.authorization;
      const settled = tx.methodType === 'authorize' ? (auth?.capturedCents ?? 0) : (tx.amountCents ?? 0);
      // Captured (or a sale): succeeded; a hold still active: waiting for its capture; voided or expired: cancelled.
      const expected = settled > 0 ? 'succeeded' : auth?.status === 'active' ? 'requires_capture' : 'canceled';
      if (intent.status !== expected) problems.push(`${reference} is ${intent.status}, the books say ${expected}`);
      if (settled > 0) {
        const kept = intent.latest_charge ? intent.latest_charge.amount - intent.latest_charge.amount_refunded : 0;
        if (kept !== settled - tx.refundedCents)
          problems.push(`Stripe kept ${kept} cents of ${reference}, the books ${settled} settled - ${tx.refundedCents} refunded`);
      }
      return problems;
    },
  };
}

export function adyenConnector(): LifecycleConnector {
  const published = adyenDescriptions('the lifecycle model on the Adyen connector');
  const payments: PaymentCall[] = [];
  const reversed: string[] = [];
  let double: AdyenDouble | null = null;
  /** Requests of the double already looked at for modifications. */
  let seen = 0;
  /** Every modification whose outcome was told, in order (one is told again now and then, late and out of order). */
  const told: AdyenModification[] = [];
  const toldReferences = new Set<string>();
  const tell = async (app: App, modification: AdyenModification, times: number) => {
    await tellAdyen(app, published!.webhooks, modification, { event: adyenOutcomeEvent(modification.kind, true), success: true }, times);
    if (!toldReferences.has(modification.pspReference)) told.push(modification);
    toldReferences.add(modification.pspReference);
  };
  return {
    name: 'the Adyen connector (msw, outcomes by webhook)',
    runs: Number(process.env.LIFECYCLE_MODEL_RUNS) || 20,
    available: published !== null,
    rules: {
      pays: {
        alpha: 'approved',
        beta: 'approved',
        paypal: 'processor_unsupported',
        declined: 'card_declined',
        insufficient: 'insufficient_funds',
        failure: 'approved',
        refundDeclined: 'approved',
      },
      hold: () => ({ processor: 'adyen', supportsCloseAuth: true }),
      capabilities: ADYEN_CAPABILITIES,
      async: true,
    },
    env: { ADYEN_HMAC_KEY: ADYEN_TEST_HMAC_KEY, ADYEN_MERCHANT_ACCOUNT: ADYEN_TEST_ACCOUNT.merchantAccount, ADYEN_API_KEY: ADYEN_TEST_ACCOUNT.apiKey },
    async start() {
      double = startAdyenDouble(published!.checkout);
      const processor = new AdyenProcessor({ ...ADYEN_TEST_ACCOUNT, returnUrl: 'http://localhost:8080/' });
      recordPayments(processor, payments, reversed);
      return processor;
    },
    async stop() {
      if (double && double.invalid.length > 0) throw new Error(`requests off Adyen's schema:\n${double.invalid.join('\n')}`);
      double?.close();
    },
    setUnreachable: (on) => double!.failNetwork(on),
    async asking(kind, call, app, random) {
      if (random() >= 0.5) return call();
      // Adyen takes the modification and its webhook comes before its answer reaches the service.
      const held = double!.holdAnswers(`/${kind}`);
      const asked = call();
      const arrived = await Promise.race([held.arrived.then(() => true), asked.then(() => false)]);
      if (arrived) {
        const modification = modificationsSince(double!, seen).filter((m) => m.kind === kind && !toldReferences.has(m.pspReference));
        for (const m of modification) await tell(app, m, 1);
      }
      held.release();
      return asked;
    },
    async settle(app, random) {
      // Releases (cancels) are called before the change that queued them answers: every modification is in `requests`.
      const fresh = modificationsSince(double!, seen).filter((m) => !toldReferences.has(m.pspReference));
      seen = double!.requests.length;
      for (let i = fresh.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [fresh[i], fresh[j]] = [fresh[j]!, fresh[i]!];
      }
      for (const modification of fresh) await tell(app, modification, 1 + Math.floor(random() * 3));
      // An outcome told before, told again now: a duplicate arriving late, after others.
      if (told.length > 0 && random() < 0.3) await tell(app, told[Math.floor(random() * told.length)]!, 1);
    },
    payments,
    reversed,
    /** The payment Adyen authorised for this transaction (its reference the pspReference), once. */
    async checkAtProcessor(reference, tx) {
      const authorised = double!.requests.filter(
        (r) => r.path.endsWith('/payments') && r.body.reference === tx.TransactionNumber && (r.answer as { resultCode?: string }).resultCode === 'Authorised',
      );
      const references = new Set(authorised.map((r) => (r.answer as { pspReference: string }).pspReference));
      return references.size === 1 && references.has(reference)
        ? []
        : [`Adyen authorised ${[...references].join(', ') || 'nothing'} for it, the books ${reference}`];
    },
  };
}

export const LIFECYCLE_CONNECTORS = [sandboxConnector, stripeConnector, adyenConnector];
