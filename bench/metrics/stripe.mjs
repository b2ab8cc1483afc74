// Metric 13: the Stripe connector's own overhead. A server of the same build with PROCESSOR=stripe, its Stripe API
// base a localstripe the harness starts (server/src/test/localstripe.ts, as the server's tests do; without its
// Python modules: not measured), on a database of its own; one client makes, one at a time, a sale, an authorization
// and its capture, and a refund of the sale through the service, and, alternating with them in the same run, the
// Stripe API calls the connector makes for each, made directly to the same localstripe with the same `stripe` package
// (resolved from server/, so the very version the connector runs); and, in turn with both, the same sequences through
// a server of the same build on the same database with the sandbox processor. What the service adds to a sequence is
// its own work (HTTP, the rows, the processor request around each call); what the connector adds beyond its calls is
// the Stripe side less the direct calls less the sandbox side.
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { localstripeMissing, startLocalstripe } from '../../scripts/test-peers.mjs';
import { createStore } from '../database.mjs';
import { Latencies, StepLatencies } from '../latencies.mjs';
import { createConnection } from '../load-client.mjs';
import { callEndpoint, capture, linkIdOf, merchantHeaders, readTransaction, TEST_CARD } from '../lifecycle.mjs';
import { createMerchant } from '../merchant.mjs';
import { SERVER_DIR, startServer } from '../server-process.mjs';

/** What each sequence is, on either side; the report names them in this order. */
export const STRIPE_SEQUENCES = [
  {
    key: 'sale',
    name: 'sale',
    throughService: 'init (sale) → the consumer pays the link',
    directCalls: 'PaymentMethod created, Customer created, PaymentMethod attached, PaymentIntent created and confirmed (automatic capture)',
  },
  {
    key: 'authorizeCapture',
    name: 'authorization and capture',
    throughService: 'init (authorize) → the consumer pays the link → status (the token) → capture',
    directCalls: 'the same four (manual capture); PaymentIntent retrieved, captured',
  },
  { key: 'refund', name: 'refund of the sale', throughService: 'refund (the whole sale)', directCalls: "the PaymentIntent's refunds listed, refund created" },
];

const SECRET_KEY = 'sk_test_bench';
const AMOUNT_CENTS = 1250;

/**
 * @param {{ storeKind: string, config: { warmup: number, sequences: number }, log: (line: string) => void, cleanup: (() => Promise<void>)[] }} context
 */
export async function measureStripeConnector({ storeKind, config, log, cleanup }) {
  const missing = localstripeMissing();
  if (missing) return { measured: false, reason: missing };
  const loadAverage = os.loadavg()[0];
  const localstripe = await startLocalstripe();
  const stopLocalstripe = () => localstripe.stop();
  cleanup.push(stopLocalstripe);
  const store = await createStore(storeKind, 'stripe');
  const disposeStore = () => store.dispose();
  cleanup.push(disposeStore);
  /** @type {Awaited<ReturnType<typeof startServer>>[]} */
  const running = [];
  try {
    const onStripe = startServer(store, {
      name: 'server-stripe',
      env: { PROCESSOR: 'stripe', STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_API_BASE: localstripe.url },
    }).then((started) => (running.push(started), started));
    // The same build on the same database with the sandbox processor (no call leaves the process): the service's
    // share without a connector, for the same merchant. On the local PostgreSQL both start at once; an embedded
    // database is the first server's, so the second joins it once it is up.
    if (store.kind !== 'local') await onStripe;
    const onSandbox = startServer(store, { name: 'server-stripe-sandbox', databaseUrl: store.url() }).then((started) => (running.push(started), started));
    const [onStripeServer, onSandboxServer] = await Promise.all([onStripe, onSandbox]);
    const merchant = await createMerchant(onStripeServer, 'Bench on Stripe');
    const http = createConnection(onStripeServer.url);
    const sandboxHttp = createConnection(onSandboxServer.url);
    const stripe = directClient(localstripe.url);
    /** @type {Record<string, { service: Latencies, direct: Latencies, sandbox: Latencies }>} */
    const samples = Object.fromEntries(STRIPE_SEQUENCES.map((s) => [s.key, { service: new Latencies(), direct: new Latencies(), sandbox: new Latencies() }]));
    // The service's requests one by one, to tell where its share of a sequence goes.
    const requests = new StepLatencies();
    const sandboxRequests = new StepLatencies();
    // The direct calls one by one: what a look before a capture or a refund costs.
    const calls = new StepLatencies();
    try {
      log(
        `  ${config.warmup} + ${config.sequences} rounds, one client; each: the service's sale, authorization and capture, refund on Stripe, the same Stripe calls made directly, the service's on the sandbox processor, in turn…`,
      );
      for (let round = 0; round < config.warmup + config.sequences; round++) {
        const measured = round >= config.warmup;
        const sides = [
          async () => {
            const times = await serviceSequences(http, merchant.apiKey, measured ? (step, ms) => requests.add(step, ms) : () => undefined);
            if (measured) for (const [key, ms] of Object.entries(times)) samples[key].service.add(ms);
          },
          async () => {
            const times = await directSequences(stripe, `bench-${round}`, measured ? (name, ms) => calls.add(name, ms) : () => undefined);
            if (measured) for (const [key, ms] of Object.entries(times)) samples[key].direct.add(ms);
          },
          async () => {
            const times = await serviceSequences(sandboxHttp, merchant.apiKey, measured ? (step, ms) => sandboxRequests.add(step, ms) : () => undefined);
            if (measured) for (const [key, ms] of Object.entries(times)) samples[key].sandbox.add(ms);
          },
        ];
        // Each round starts with the next side.
        for (let k = 0; k < sides.length; k++) await sides[(round + k) % sides.length]();
      }
    } finally {
      http.close();
      sandboxHttp.close();
    }
    const summary = (l) => ({ count: l.count, p50: l.percentile(50), p95: l.percentile(95), max: l.percentile(100) });
    return {
      measured: true,
      loadAverage,
      sequences: config.sequences,
      results: STRIPE_SEQUENCES.map((s) => ({
        ...s,
        service: summary(samples[s.key].service),
        direct: summary(samples[s.key].direct),
        sandbox: summary(samples[s.key].sandbox),
      })),
      requests: [...requests.steps].map(([step, latencies]) => ({ step, ...summary(latencies), sandbox: summary(sandboxRequests.steps.get(step)) })),
      calls: [...calls.steps].map(([step, latencies]) => ({ step, ...summary(latencies) })),
    };
  } finally {
    // The last started first: a server that owns an embedded database stops after the one that joined it.
    for (const started of [...running].reverse()) await started.stop();
    await localstripe.stop();
    cleanup.splice(cleanup.indexOf(stopLocalstripe), 1);
    cleanup.splice(cleanup.indexOf(disposeStore), 1);
    await store.dispose();
  }
}

/** The `stripe` package the connector runs (server/'s own dependency), on localstripe as the connector configures it. */
function directClient(apiBase) {
  const Stripe = createRequire(path.join(SERVER_DIR, 'package.json'))('stripe');
  const base = new URL(apiBase);
  return new Stripe(SECRET_KEY, { host: base.hostname, port: base.port, protocol: 'http', maxNetworkRetries: 0, timeout: 30_000, telemetry: false });
}

/**
 * The three sequences through the service, each timed from its first request sent to its last answer; `record` gets
 * each request's own time.
 * @param {import('../load-client.mjs').Connection} http
 * @param {string} apiKey
 * @param {(step: string, ms: number) => void} record
 */
async function serviceSequences(http, apiKey, record) {
  const headers = merchantHeaders(apiKey);
  const card = { method: 'card', card: TEST_CARD };
  const init = (methodType) =>
    callEndpoint(http, 'initTransaction', {
      body: { amount: AMOUNT_CENTS, isCent: true, currency: 'USD', methodType },
      headers,
      onTime: (ms) => record(`init (${methodType})`, ms),
    });
  const payLink = (created, methodType) =>
    callEndpoint(http, 'payPaymentLink', { params: { linkId: linkIdOf(created) }, body: card, onTime: (ms) => record(`pay (${methodType})`, ms) });

  let started = performance.now();
  const sale = await init('sale');
  await payLink(sale, 'sale');
  const saleMs = performance.now() - started;

  started = performance.now();
  const hold = await init('authorize');
  await payLink(hold, 'authorize');
  const status = await readTransaction(http, apiKey, hold.TransactionNumber, { onTime: (ms) => record('status', ms) });
  const token = status.paymentDetails?.token;
  if (!token) throw new Error(`transaction ${hold.TransactionNumber} has no token after the consumer paid (status ${status.status})`);
  await capture(http, apiKey, token, AMOUNT_CENTS, { onTime: (ms) => record('capture', ms) });
  const authorizeCaptureMs = performance.now() - started;

  started = performance.now();
  await callEndpoint(http, 'refundTransaction', {
    params: { transactionNumber: sale.TransactionNumber },
    body: {},
    headers,
    onTime: (ms) => record('refund', ms),
  });
  const refundMs = performance.now() - started;
  return { sale: saleMs, authorizeCapture: authorizeCaptureMs, refund: refundMs };
}

/**
 * The same sequences as the connector makes them (server/src/processor/stripe/stripe-processor.ts): the card saved on
 * a Customer of its own and a PaymentIntent confirmed with it; a capture after a look at the intent; a refund after a
 * look at the intent's refunds. Every call with its Idempotency-Key and metadata, as the connector sends them;
 * `record` gets each call's own time.
 * @param {any} stripe
 * @param {string} key
 * @param {(name: string, ms: number) => void} record
 */
async function directSequences(stripe, key, record) {
  /** @type {<T>(name: string, call: () => Promise<T>) => Promise<T>} */
  const timed = async (name, call) => {
    const started = performance.now();
    const answer = await call();
    record(name, performance.now() - started);
    return answer;
  };
  const card = { number: TEST_CARD.number, exp_month: TEST_CARD.expMonth, exp_year: TEST_CARD.expYear, cvc: TEST_CARD.cvc };
  const pay = async (requestKey, captureMethod) => {
    const metadata = { transactionNumber: requestKey, requestKey };
    const paymentMethod = await timed('PaymentMethod created', () =>
      stripe.paymentMethods.create({ type: 'card', card }, { idempotencyKey: `${requestKey}-pm` }),
    );
    const customer = await timed('Customer created', () => stripe.customers.create({ metadata }, { idempotencyKey: `${requestKey}-customer` }));
    await timed('attached', () => stripe.paymentMethods.attach(paymentMethod.id, { customer: customer.id }, { idempotencyKey: `${requestKey}-attach` }));
    const intent = await timed(`PaymentIntent confirmed (${captureMethod})`, () =>
      stripe.paymentIntents.create(
        {
          customer: customer.id,
          payment_method: paymentMethod.id,
          amount: AMOUNT_CENTS,
          currency: 'usd',
          capture_method: captureMethod,
          metadata,
          confirm: true,
        },
        { idempotencyKey: requestKey },
      ),
    );
    const expected = captureMethod === 'manual' ? 'requires_capture' : 'succeeded';
    if (intent.status !== expected) throw new Error(`localstripe: the PaymentIntent is ${intent.status}, not ${expected}`);
    return intent;
  };

  let started = performance.now();
  const sale = await pay(`${key}-sale`, 'automatic');
  const saleMs = performance.now() - started;

  started = performance.now();
  const hold = await pay(`${key}-hold`, 'manual');
  const intent = await timed('PaymentIntent retrieved', () => stripe.paymentIntents.retrieve(hold.id));
  if (intent.status !== 'requires_capture') throw new Error(`localstripe: the held PaymentIntent is ${intent.status}`);
  await timed('captured', () => stripe.paymentIntents.capture(hold.id, { amount_to_capture: AMOUNT_CENTS }, { idempotencyKey: `${key}-capture` }));
  const authorizeCaptureMs = performance.now() - started;

  started = performance.now();
  const refundKey = `${key}-refund`;
  const made = await timed('refunds listed', () => stripe.refunds.list({ payment_intent: sale.id, limit: 100 }));
  if (made.data.some((refund) => refund.metadata?.requestKey === refundKey)) throw new Error('localstripe: the refund was made already');
  await timed('refund created', () =>
    stripe.refunds.create({ payment_intent: sale.id, amount: AMOUNT_CENTS, metadata: { requestKey: refundKey } }, { idempotencyKey: refundKey }),
  );
  const refundMs = performance.now() - started;
  return { sale: saleMs, authorizeCapture: authorizeCaptureMs, refund: refundMs };
}
