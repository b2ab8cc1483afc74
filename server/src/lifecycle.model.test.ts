/**
 * Model-based test of the transaction lifecycle (docs/integrating.md#statuses, #lifecycle-rules, #refunds): random sequences of init,
 * consumer pays, capture, void, re-authorization, closeAuth, cancel, refunds (some declined by the processor, some
 * unanswered and finished later by the processor-request worker) and sandbox clock advances run against the real
 * server over HTTP and against a small in-memory model of the rules; after every command every transaction of the run
 * is read back and must match the model, and never show more refunded than settled.
 *
 * It runs on each connector's behaviour (`test/lifecycle-connectors.ts`): the sandbox processor; the Stripe connector
 * on localstripe (one capture per intent, no re-authorization, no closeAuth, no wallets); the Adyen connector on the
 * msw double of its published API, whose captures, refunds and cancels answer `received` and finish by webhook: each
 * outcome told 1 to 3 times, several in any order, an old one again late, some before the call's answer is recorded.
 * After each run, every payment was charged once at the processor (one approved payment call per paid transaction,
 * none reversed), and what the processor holds agrees with the books (Stripe: the PaymentIntent's state and what it
 * kept; Adyen: the one payment it authorised).
 *
 * Timing: the model's clock is the sum of the run's advances, in seconds. Time-outs and advances are multiples of
 * 500 s and a run takes far less than 500 s of wall time, so no "is it due yet" decision sits near a boundary.
 */
import { Status, type ConsumerPayRequest, type ProvisionedMerchant, type Transaction } from '@svc/protocol';
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { finishAbandonedProcessorRequests, PROCESSOR_LEASE_MS } from './modules/processor-requests';
import { PROCESSOR_OPERATIONS } from './processor-operations';
import type { PaymentProcessor } from './processor/processor';
import { startTestApp, type TestApp } from './test/app';
import { UNTHROTTLED } from './test/harness';
import { LIFECYCLE_CONNECTORS, type ConnectorRules, type LifecycleConnector, type PayMethod } from './test/lifecycle-connectors';
import { createTestDatabase, type TestDatabase } from './test/database';
import { provisionTestMerchant } from './test/fixtures';
import { BETA_CARD, cardNumbered, consumerPays, merchantClient, TEST_CARD, type Answer, type MerchantClient, codeOf } from './test/merchant-client';

const HOLD_S = 604_800;

/** The status moves of docs/integrating.md#statuses, written out here so the test does not take the server's (or protocol's) word for it. */
const STATUS_NAMES: Record<number, string> = {
  0: 'Approved',
  1: 'Pending',
  2: 'Declined',
  3: 'TimedOut',
  4: 'Cancelled',
  5: 'Authorized',
  6: 'PartiallyCaptured',
  7: 'Captured',
  8: 'Voided',
  9: 'AuthorizationClosed',
  10: 'AwaitingCommit',
  11: 'Expired',
  12: 'Failed',
  13: 'PartiallyRefunded',
  14: 'Refunded',
};
/** `authorization.status` (docs/integrating.md#the-transaction-object) for a transaction that has had a hold. */
const HOLD_STATE: Record<number, string> = {
  [Status.Authorized]: 'active',
  [Status.PartiallyCaptured]: 'active',
  [Status.Captured]: 'captured',
  [Status.Voided]: 'voided',
  [Status.AuthorizationClosed]: 'closed',
  [Status.Expired]: 'expired',
};
/** Where a hold can still be re-authorized. */
const HOLD_LIVE: number[] = [Status.Authorized, Status.PartiallyCaptured, Status.Expired];

// ---------------------------------------------------------------------------------------------------------------
// The model

interface ModelHold {
  authorized: number;
  captured: number;
  released: number;
  /** Model seconds. */
  expiresAt: number;
  processor: string;
  supportsCloseAuth: boolean;
}

interface ModelTx {
  methodType: 'sale' | 'authorize';
  amountCents: number | null;
  status: number;
  /** Model seconds; null without a time-out. */
  timeoutAt: number | null;
  /** Set once the consumer's authorization is approved. */
  hold: ModelHold | null;
  hasToken: boolean;
  payments: { amountCents: number; status: 'succeeded' | 'failed' }[];
  /** Paid with the test card whose refunds the processor declines. */
  refundsDeclined: boolean;
  refunds: { amountCents: number; status: 'pending' | 'succeeded' | 'failed' }[];
  /** The status the first refund moved it from (an authorization keeps its hold's end: captured, voided, closed, expired). */
  refundedFrom: number | null;
  sequence: number;
  /** Model seconds of the consumer's declines: a link takes 5 in 30 minutes (card testing). */
  declinedAt: number[];
}

interface Model {
  /** Seconds advanced since the run started. */
  now: number;
  txs: ModelTx[];
  /** What the connector of the run does (its cards, its capabilities). */
  rules: ConnectorRules;
}

interface RealTx {
  number: string;
  created: Transaction;
  token: string | null;
}

interface Real {
  app: TestApp;
  database: TestDatabase;
  processor: PaymentProcessor;
  connector: LifecycleConnector;
  /** The run's own randomness (seeded by fast-check): the order and repeats of an asynchronous connector's outcomes. */
  random: () => number;
  client: MerchantClient;
  txs: RealTx[];
  /** What this run did so far, resolved (which transaction, which amount) and with the server's answers. */
  trace: string[];
}

type Outcome = { http: 200 } | { http: number; code: string };
const OK: Outcome = { http: 200 };
const refused = (code: string, http = 409): Outcome => ({ http, code });

const available = (h: ModelHold) => h.authorized - h.captured - h.released;
const holdActive = (t: ModelTx) => t.hold !== null && (t.status === Status.Authorized || t.status === Status.PartiallyCaptured);

const PAY_BODIES: Record<PayMethod, ConsumerPayRequest> = {
  alpha: TEST_CARD,
  refundDeclined: cardNumbered('4000000000005126'),
  beta: BETA_CARD,
  paypal: { method: 'paypal' },
  declined: cardNumbered('4000000000000002'),
  insufficient: cardNumbered('4000000000009995'),
  failure: cardNumbered('4000000000000119'),
};

/** Consumer pays (POST /pay/:linkId). Mutates `t` when something changes. */
function modelConsumerPays(m: Model, t: ModelTx, method: PayMethod): Outcome {
  const outcome = m.rules.pays[method];
  // A wallet the connector cannot take is refused before anything else.
  if (outcome === 'processor_unsupported') return refused('processor_unsupported');
  // Card testing is counted first, whatever the link's state.
  if (t.declinedAt.filter((at) => at > m.now - 1800).length >= 5) return refused('too_many_declines', 429);
  // Pending, or Declined (the consumer tries another card); never past the time-out.
  if ((t.status !== Status.Pending && t.status !== Status.Declined) || (t.timeoutAt !== null && t.timeoutAt <= m.now))
    return refused('transaction_not_payable');
  // An authorization created without an amount has nothing for the consumer to approve: its page shows no form.
  if (t.amountCents === null) return refused('transaction_not_payable');
  t.sequence += 1;
  const amount = t.amountCents;
  if (outcome === 'card_declined' || outcome === 'insufficient_funds' || outcome === 'processor_failure') {
    t.status = outcome === 'processor_failure' ? Status.Failed : Status.Declined;
    if (t.methodType === 'sale') t.payments.push({ amountCents: amount, status: 'failed' });
    if (outcome === 'processor_failure') return refused('processor_failure', 502);
    t.declinedAt.push(m.now);
    return refused(outcome, 402);
  }
  t.refundsDeclined = outcome === 'refundsDeclined';
  if (t.methodType === 'sale') {
    t.status = Status.Approved;
    t.payments.push({ amountCents: amount, status: 'succeeded' });
    return OK;
  }
  t.status = Status.Authorized;
  t.hasToken = true;
  t.hold = { authorized: amount, captured: 0, released: 0, expiresAt: m.now + HOLD_S, ...m.rules.hold(method) };
  return OK;
}

function modelCapture(m: Model, t: ModelTx, amount: number): Outcome {
  const h = t.hold;
  if (!h || !holdActive(t)) return refused('authorization_not_active');
  if (amount > available(h)) return refused('amount_exceeds_available');
  // A connector that captures once gives the rest of the hold back with a partial capture: the hold closes.
  const closes = !m.rules.capabilities.multipleCaptures && amount < available(h);
  h.captured += amount;
  if (closes) h.released += available(h);
  t.status = closes ? Status.AuthorizationClosed : available(h) === 0 ? Status.Captured : Status.PartiallyCaptured;
  t.payments.push({ amountCents: amount, status: 'succeeded' });
  t.sequence += 1;
  return OK;
}

function modelVoid(t: ModelTx): Outcome {
  if (t.methodType !== 'authorize') return refused('not_an_authorization');
  const h = t.hold;
  if (!h || !holdActive(t)) return refused('authorization_not_active');
  h.released += available(h);
  t.status = Status.Voided;
  t.sequence += 1;
  return OK;
}

function modelReauthorize(m: Model, t: ModelTx, amount: number): Outcome {
  if (!m.rules.capabilities.reauthorize) return refused('processor_unsupported');
  const h = t.hold;
  // A refund of an expired hold's captures in flight ends in 13 or 14: no new hold meanwhile.
  if (!h || !HOLD_LIVE.includes(t.status) || refundsInFlight(t) > 0) return refused('authorization_not_active');
  h.released = h.authorized - h.captured;
  h.authorized += amount;
  h.expiresAt = m.now + HOLD_S;
  t.status = Status.Authorized;
  t.sequence += 1;
  return OK;
}

function modelCloseAuth(m: Model, t: ModelTx): Outcome {
  if (!m.rules.capabilities.closeAuth) return refused('processor_unsupported');
  if (t.methodType !== 'authorize') return refused('not_an_authorization');
  if (t.status === Status.Captured) return refused('nothing_to_release');
  const h = t.hold;
  if (!h || !holdActive(t)) return refused('authorization_not_active');
  if (h.captured === 0) return refused('no_successful_payment');
  if (available(h) === 0) return refused('nothing_to_release');
  if (!h.supportsCloseAuth) return refused('close_auth_unsupported');
  h.released += available(h);
  t.status = Status.AuthorizationClosed;
  t.sequence += 1;
  return OK;
}

function modelCancel(t: ModelTx): Outcome {
  if (t.status !== Status.Pending) return refused('transaction_not_cancellable');
  t.status = Status.Cancelled;
  t.sequence += 1;
  return OK;
}

/** What the transaction settled: an authorization's captures, a sale's amount. */
const settled = (t: ModelTx) => (t.methodType === 'authorize' ? (t.hold?.captured ?? 0) : (t.amountCents ?? 0));
const sumOf = (t: ModelTx, status: 'pending' | 'succeeded') => t.refunds.filter((r) => r.status === status).reduce((sum, r) => sum + r.amountCents, 0);
const refundsInFlight = (t: ModelTx) => sumOf(t, 'pending');
const refunded = (t: ModelTx) => sumOf(t, 'succeeded');
/** Settled money nothing holds any more: a paid sale; an authorization whose hold ended after captures; either refunded in part. */
function isRefundable(t: ModelTx): boolean {
  if (t.methodType === 'sale') return t.status === Status.Approved || t.status === Status.PartiallyRefunded;
  const ended: number[] = [Status.Captured, Status.Voided, Status.AuthorizationClosed, Status.Expired, Status.PartiallyRefunded];
  return ended.includes(t.status) && (t.hold?.captured ?? 0) > 0;
}
const refundable = (t: ModelTx) => (isRefundable(t) ? settled(t) - refunded(t) - refundsInFlight(t) : 0);

/** A refund's outcome, once the processor answers it: the money given back (13, then 14), or declined and freed. */
function modelRefundOutcome(t: ModelTx, refund: ModelTx['refunds'][number]): void {
  t.sequence += 1;
  if (t.refundsDeclined) {
    refund.status = 'failed';
    return;
  }
  refund.status = 'succeeded';
  t.refundedFrom ??= t.status;
  t.status = refunded(t) === settled(t) ? Status.Refunded : Status.PartiallyRefunded;
}

/** `amount` null: everything still refundable. `answered` false: the processor does not answer (the refund stays pending). */
function modelRefund(t: ModelTx, amount: number | null, answered: boolean): Outcome {
  if (t.methodType === 'authorize' && holdActive(t)) return refused('authorization_active');
  if (!isRefundable(t)) return refused(t.status === Status.Refunded ? 'amount_exceeds_refundable' : 'nothing_to_refund');
  const left = refundable(t);
  const cents = amount ?? left;
  if (cents <= 0 || cents > left) return refused('amount_exceeds_refundable');
  t.sequence += 1;
  const refund = { amountCents: cents, status: 'pending' as const } as ModelTx['refunds'][number];
  t.refunds.push(refund);
  if (!answered) return refused('processor_failure', 502);
  modelRefundOutcome(t, refund);
  if (refund.status === 'failed') return refused('refund_declined', 402);
  return OK;
}

function modelAdvance(m: Model, seconds: number): void {
  m.now += seconds;
  for (const t of m.txs) {
    if (t.status === Status.Pending && t.timeoutAt !== null && t.timeoutAt <= m.now) {
      t.status = Status.TimedOut;
      t.sequence += 1;
    }
    const h = t.hold;
    if (h && holdActive(t) && h.expiresAt <= m.now) {
      h.released += available(h);
      t.status = Status.Expired;
      t.sequence += 1;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Comparing the model with the server

/** The fields the model predicts, as the model sees them. */
function expectedView(t: ModelTx, token: string | null) {
  const h = t.hold;
  return {
    status: t.status,
    statusName: STATUS_NAMES[t.status],
    methodType: t.methodType,
    amountCents: t.amountCents,
    hasTimeoutDate: t.timeoutAt !== null,
    sequence: t.sequence,
    token: t.hasToken ? (token ?? '(a token)') : null,
    balance: h ? available(h) / 100 : 0,
    authorization: h
      ? {
          status: HOLD_STATE[t.refundedFrom ?? t.status],
          authorizedCents: h.authorized,
          capturedCents: h.captured,
          releasedCents: h.released,
          availableCents: available(h),
          processor: h.processor,
          supportsCloseAuth: h.supportsCloseAuth,
        }
      : null,
    payments: t.payments.map((p) => `${p.amountCents}:${p.status}`),
    refundedCents: refunded(t),
    refundableCents: refundable(t),
    refunds: t.refunds.map((r) => `${r.amountCents}:${r.status}`),
  };
}

/** The same fields, as the server reports them. */
function actualView(tx: Transaction, knownToken: string | null) {
  const a = tx.authorization;
  const token = tx.paymentDetails?.token ?? null;
  return {
    status: tx.status,
    statusName: tx.statusName,
    methodType: tx.methodType,
    amountCents: tx.amountCents,
    hasTimeoutDate: tx.timeoutDate !== null,
    sequence: tx.sequence,
    // Before the run has learnt the token, any token counts.
    token: token !== null && knownToken === null ? '(a token)' : token,
    balance: tx.balance,
    authorization: a
      ? {
          status: a.status,
          authorizedCents: a.authorizedCents,
          capturedCents: a.capturedCents,
          releasedCents: a.releasedCents,
          availableCents: a.availableCents,
          processor: a.processor,
          supportsCloseAuth: a.supportsCloseAuth,
        }
      : null,
    payments: tx.payments.map((p) => `${p.amountCents}:${p.status}`),
    refundedCents: tx.refundedCents,
    refundableCents: tx.refundableCents,
    refunds: tx.refunds.map((r) => `${r.amountCents}:${r.status}`),
  };
}

/** `path: expected X, got Y` for every leaf that differs. */
function differences(expected: unknown, actual: unknown, path = ''): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(expected) && isObject(actual)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].flatMap((k) => differences(expected[k], actual[k], path ? `${path}.${k}` : k));
  }
  if (JSON.stringify(expected) === JSON.stringify(actual)) return [];
  return [`${path || '(value)'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

function fail(r: Real, message: string): never {
  throw new Error(`${message}\n  run so far:\n    ${r.trace.join('\n    ')}`);
}

const describeOutcome = (o: Outcome) => ('code' in o ? `${o.http} ${o.code}` : `${o.http}`);

/** The answer's HTTP status (and problem code) must be what the model said. */
function checkAnswer(r: Real, answer: Answer<unknown>, want: Outcome): void {
  const code = codeOf(answer.body);
  const got = code === undefined ? `${answer.status}` : `${answer.status} ${code}`;
  r.trace[r.trace.length - 1] += ` → ${got}`;
  const wantCode = 'code' in want ? want.code : undefined;
  // An asynchronous connector's capture or refund answers 202 (pending) until its outcome is told: the model's 200.
  const status = answer.status === 202 && r.connector.rules.async ? 200 : answer.status;
  if (status !== want.http || (wantCode !== undefined && code !== wantCode)) {
    fail(r, `answer differs: expected ${describeOutcome(want)}, got ${got}: ${JSON.stringify(answer.body).slice(0, 400)}`);
  }
}

/** A transaction object the server returned must match the model's transaction `index`. */
function checkTransaction(m: Model, r: Real, index: number, tx: Transaction, where: string): void {
  const t = m.txs[index]!;
  const real = r.txs[index]!;
  const diff = differences(expectedView(t, real.token), actualView(tx, real.token));
  const a = tx.authorization;
  // The books are never negative.
  const amounts = { refundedCents: tx.refundedCents, refundableCents: tx.refundableCents, balance: tx.balance, ...(a ?? {}) };
  for (const [name, value] of Object.entries(amounts)) if (typeof value === 'number' && value < 0) diff.push(`invariant ${name} ≥ 0 broken: ${value}`);
  if (a) {
    if (a.capturedCents + a.releasedCents > a.authorizedCents) {
      diff.push(`invariant captured + released ≤ authorized broken: ${a.capturedCents} + ${a.releasedCents} > ${a.authorizedCents}`);
    }
    const paid = tx.payments.filter((p) => p.status === 'succeeded').reduce((sum, p) => sum + p.amountCents, 0);
    if (paid !== a.capturedCents) diff.push(`invariant Σ succeeded payments = capturedCents broken: ${paid} ≠ ${a.capturedCents}`);
  }
  // Never more refunded (or being refunded) than settled; the succeeded refunds are what refundedCents says.
  const settledCents = tx.methodType === 'authorize' ? (a?.capturedCents ?? 0) : (tx.amountCents ?? 0);
  const sum = (status: string) => tx.refunds.filter((r) => r.status === status).reduce((total, r) => total + r.amountCents, 0);
  if (sum('succeeded') !== tx.refundedCents) diff.push(`invariant Σ succeeded refunds = refundedCents broken: ${sum('succeeded')} ≠ ${tx.refundedCents}`);
  if (tx.refundedCents + sum('pending') > settledCents) {
    diff.push(`invariant refunded + in flight ≤ settled broken: ${tx.refundedCents} + ${sum('pending')} > ${settledCents}`);
  }
  if (diff.length > 0) fail(r, `${where}: tx${index} (${real.number}) differs from the model:\n    ${diff.join('\n    ')}`);
}

/**
 * After every command: what the processor owes is delivered (an asynchronous connector's outcomes), then every
 * transaction of the run, as GET /transactions/:n reports it, must match the model.
 */
async function checkAll(m: Model, r: Real): Promise<void> {
  await r.connector.settle(r.app, r.random);
  const answers = await Promise.all(r.txs.map((t) => r.client.get(t.number)));
  answers.forEach((answer, i) => {
    if (answer.status !== 200) fail(r, `GET tx${i} (${r.txs[i]!.number}) answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    checkTransaction(m, r, i, answer.body, 'GET after the last step');
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Commands

type Cmd = fc.AsyncCommand<Model, Real>;

/**
 * Which transaction a command acts on: `n` modulo the number of candidates. A focused pick prefers the candidates
 * on which the command can succeed (a pending one to pay, an active hold to capture...), so success paths are
 * common; an unfocused one takes any candidate, so refusals are common too.
 */
interface Pick {
  n: number;
  focused: boolean;
}
type Filter = (t: ModelTx) => boolean;
const anyTx: Filter = () => true;
const withToken: Filter = (t) => t.hasToken;
const pending: Filter = (t) => t.status === Status.Pending;
/** A payment link takes a payment while Pending, and again after a decline. */
const linkPayable: Filter = (t) => t.status === Status.Pending || t.status === Status.Declined;
const indicesOf = (m: Readonly<Model>, filter: Filter) => m.txs.flatMap((t, i) => (filter(t) ? [i] : []));
function choose(m: Readonly<Model>, pick: Pick, broad: Filter, focus: Filter): number {
  const focused = pick.focused ? indicesOf(m, (t) => broad(t) && focus(t)) : [];
  const candidates = focused.length > 0 ? focused : indicesOf(m, broad);
  return candidates[pick.n % candidates.length]!;
}
const hasCandidate = (m: Readonly<Model>, broad: Filter) => m.txs.some(broad);
const showPick = (p: Pick) => `${p.focused ? 'focused ' : ''}#${p.n}`;

class Init implements Cmd {
  constructor(
    readonly methodType: 'sale' | 'authorize',
    readonly amount: number | null,
    readonly timeOut: number | null,
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    r.trace.push(`init ${this.methodType} amount=${this.amount ?? '(none)'} timeOut=${this.timeOut ?? '(none)'} → tx${r.txs.length}`);
    const answer = await r.client.init({
      ...(this.amount === null ? {} : { amount: this.amount, isCent: true }),
      currency: 'USD',
      ...(this.methodType === 'authorize' ? { methodType: 'authorize' } : {}),
      ...(this.timeOut === null ? {} : { timeOut: this.timeOut }),
    });
    checkAnswer(r, answer, OK);
    m.txs.push({
      methodType: this.methodType,
      amountCents: this.amount,
      status: Status.Pending,
      timeoutAt: this.timeOut === null ? null : m.now + this.timeOut,
      hold: null,
      hasToken: false,
      payments: [],
      sequence: 1,
      declinedAt: [],
      refundsDeclined: false,
      refunds: [],
      refundedFrom: null,
    });
    r.txs.push({ number: answer.body.TransactionNumber, created: answer.body, token: null });
    r.trace[r.trace.length - 1] += ` ${answer.body.TransactionNumber}`;
    checkTransaction(m, r, m.txs.length - 1, answer.body, 'init answer');
    await checkAll(m, r);
  }
  toString = () => `init(${this.methodType}, ${this.amount ?? 'no amount'}, timeOut ${this.timeOut ?? 'none'})`;
}

class ConsumerPays implements Cmd {
  constructor(
    readonly pick: Pick,
    readonly method: PayMethod,
  ) {}
  check = (m: Readonly<Model>) => hasCandidate(m, anyTx);
  async run(m: Model, r: Real): Promise<void> {
    const i = choose(m, this.pick, anyTx, linkPayable);
    r.trace.push(`consumer pays tx${i} with ${this.method} (model: status ${m.txs[i]!.status})`);
    const want = modelConsumerPays(m, m.txs[i]!, this.method);
    const answer = await consumerPays(r.app, r.txs[i]!.created, PAY_BODIES[this.method]);
    checkAnswer(r, answer, want);
    if (m.txs[i]!.hasToken && r.txs[i]!.token === null) {
      const read = await r.client.get(r.txs[i]!.number);
      const token = read.body.paymentDetails?.token ?? null;
      if (token === null) fail(r, `tx${i} was authorized but paymentDetails.token is null: ${JSON.stringify(read.body.paymentDetails)}`);
      r.txs[i]!.token = token;
    }
    await checkAll(m, r);
  }
  toString = () => `consumerPays(${showPick(this.pick)}, ${this.method})`;
}

/** A capture amount: fixed cents, half of what is available, exactly what is available, or one cent more. */
type CaptureAmount = { kind: 'cents'; cents: number } | { kind: 'half' } | { kind: 'all' } | { kind: 'allPlusOne' };
function captureCents(amount: CaptureAmount, left: number): number {
  switch (amount.kind) {
    case 'cents':
      return amount.cents;
    case 'half':
      return Math.max(1, Math.floor(left / 2));
    case 'all':
      return Math.max(1, left);
    case 'allPlusOne':
      return left + 1;
  }
}

class Capture implements Cmd {
  constructor(
    readonly pick: Pick,
    readonly amount: CaptureAmount,
  ) {}
  check = (m: Readonly<Model>) => hasCandidate(m, withToken);
  async run(m: Model, r: Real): Promise<void> {
    const i = choose(m, this.pick, withToken, holdActive);
    const t = m.txs[i]!;
    const left = t.hold ? available(t.hold) : 0;
    const cents = captureCents(this.amount, left);
    r.trace.push(`capture tx${i} ${cents} cents (model: status ${t.status}, available ${left})`);
    const want = modelCapture(m, t, cents);
    const answer = await r.connector.asking('captures', () => r.client.pay({ token: r.txs[i]!.token!, amount: cents }), r.app, r.random);
    checkAnswer(r, answer, want);
    if (answer.status === 200) {
      if (answer.body.payment.amountCents !== cents) fail(r, `capture answer: payment.amountCents expected ${cents}, got ${answer.body.payment.amountCents}`);
      checkTransaction(m, r, i, answer.body.transaction, 'capture answer');
    }
    await checkAll(m, r);
  }
  toString = () => `capture(${showPick(this.pick)}, ${this.amount.kind === 'cents' ? this.amount.cents : this.amount.kind})`;
}

class Void implements Cmd {
  constructor(
    readonly pick: Pick,
    readonly by: 'token' | 'transactionNumber',
  ) {}
  check = (m: Readonly<Model>) => hasCandidate(m, this.by === 'token' ? withToken : anyTx);
  async run(m: Model, r: Real): Promise<void> {
    const i = choose(m, this.pick, this.by === 'token' ? withToken : anyTx, holdActive);
    const t = m.txs[i]!;
    r.trace.push(`void tx${i} by ${this.by} (model: status ${t.status}${t.hold ? `, available ${available(t.hold)}` : ''})`);
    const want = modelVoid(t);
    const answer = await r.client.void(this.by === 'token' ? { token: r.txs[i]!.token! } : { transactionNumber: r.txs[i]!.number });
    checkAnswer(r, answer, want);
    if (answer.status === 200) checkTransaction(m, r, i, answer.body, 'void answer');
    await checkAll(m, r);
  }
  toString = () => `void(${showPick(this.pick)}, by ${this.by})`;
}

class Reauthorize implements Cmd {
  constructor(
    readonly pick: Pick,
    readonly amount: number,
  ) {}
  check = (m: Readonly<Model>) => hasCandidate(m, withToken);
  async run(m: Model, r: Real): Promise<void> {
    const i = choose(m, this.pick, withToken, (t) => HOLD_LIVE.includes(t.status));
    const t = m.txs[i]!;
    r.trace.push(`authorize tx${i} ${this.amount} cents (model: status ${t.status}${t.hold ? `, available ${available(t.hold)}` : ''})`);
    const want = modelReauthorize(m, t, this.amount);
    const answer = await r.client.authorize({ token: r.txs[i]!.token!, amount: this.amount });
    checkAnswer(r, answer, want);
    if (answer.status === 200) checkTransaction(m, r, i, answer.body, 'authorize answer');
    await checkAll(m, r);
  }
  toString = () => `authorize(${showPick(this.pick)}, ${this.amount})`;
}

class CloseAuth implements Cmd {
  constructor(readonly pick: Pick) {}
  check = (m: Readonly<Model>) => hasCandidate(m, anyTx);
  async run(m: Model, r: Real): Promise<void> {
    const i = choose(m, this.pick, anyTx, (t) => holdActive(t) && t.hold!.captured > 0);
    const t = m.txs[i]!;
    const h = t.hold;
    r.trace.push(
      `closeAuth tx${i} (model: ${t.methodType}, status ${t.status}${h ? `, captured ${h.captured}, available ${available(h)}, ${h.processor}` : ''})`,
    );
    const want = modelCloseAuth(m, t);
    const answer = await r.client.closeAuth(r.txs[i]!.number);
    checkAnswer(r, answer, want);
    if (answer.status === 200) checkTransaction(m, r, i, answer.body, 'closeAuth answer');
    await checkAll(m, r);
  }
  toString = () => `closeAuth(${showPick(this.pick)})`;
}

class Cancel implements Cmd {
  constructor(readonly pick: Pick) {}
  check = (m: Readonly<Model>) => hasCandidate(m, anyTx);
  async run(m: Model, r: Real): Promise<void> {
    const i = choose(m, this.pick, anyTx, pending);
    r.trace.push(`cancel tx${i} (model: status ${m.txs[i]!.status})`);
    const want = modelCancel(m.txs[i]!);
    const answer = await r.client.cancel(r.txs[i]!.number);
    checkAnswer(r, answer, want);
    if (answer.status === 200) checkTransaction(m, r, i, answer.body, 'cancel answer');
    await checkAll(m, r);
  }
  toString = () => `cancel(${showPick(this.pick)})`;
}

class AdvanceClock implements Cmd {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    r.trace.push(`advance clock ${this.seconds} s (model now ${m.now} → ${m.now + this.seconds})`);
    modelAdvance(m, this.seconds);
    const answer = await r.client.advanceClock(this.seconds);
    checkAnswer(r, answer, OK);
    await checkAll(m, r);
  }
  toString = () => `advance(${this.seconds})`;
}

/** A refund amount: fixed cents, half of what is refundable, none (everything), or one cent more than is refundable. */
type RefundAmount = { kind: 'cents'; cents: number } | { kind: 'half' } | { kind: 'omitted' } | { kind: 'allPlusOne' };

class Refund implements Cmd {
  constructor(
    readonly pick: Pick,
    readonly amount: RefundAmount,
    /** Whether the processor answers the call (else it stays pending for the worker). */
    readonly answered: boolean,
    /** Whether the merchant sends it again with the same Idempotency-Key (never a second refund). */
    readonly again: boolean,
  ) {}
  check = (m: Readonly<Model>) => hasCandidate(m, anyTx);
  async run(m: Model, r: Real): Promise<void> {
    const i = choose(m, this.pick, anyTx, isRefundable);
    const t = m.txs[i]!;
    const left = refundable(t);
    const cents =
      this.amount.kind === 'omitted'
        ? null
        : this.amount.kind === 'cents'
          ? this.amount.cents
          : this.amount.kind === 'half'
            ? Math.max(1, Math.floor(left / 2))
            : left + 1;
    r.trace.push(`refund tx${i} ${cents ?? 'everything'}${this.answered ? '' : ' (unanswered)'} (model: status ${t.status}, refundable ${left})`);
    const want = modelRefund(t, cents, this.answered);
    const key = { 'idempotency-key': `refund-${++refundKeys}` };
    const body = cents === null ? {} : { amount: cents };
    r.connector.setUnreachable(!this.answered);
    const answer = await r.connector
      .asking('refunds', () => r.client.refund(r.txs[i]!.number, body, key), r.app, r.random)
      .finally(() => r.connector.setUnreachable(false));
    checkAnswer(r, answer, want);
    if (answer.status === 200) checkTransaction(m, r, i, answer.body.transaction, 'refund answer');
    if (this.again) {
      // An asynchronous connector's outcome is told first: the key then holds the refund's outcome.
      await r.connector.settle(r.app, r.random);
      r.trace.push(`  the same refund again, same key`);
      const replay = await r.client.refund(r.txs[i]!.number, body, key);
      // A refund still at the processor holds its key; any other answer is replayed as it was (a pending one, as told).
      checkAnswer(r, replay, answer.status === 502 ? refused('idempotency_key_in_use') : 'code' in want ? want : OK);
      if (answer.status !== 502 && answer.status !== 202 && JSON.stringify(replay.body) !== JSON.stringify(answer.body)) {
        fail(r, 'the replay differs from the first answer');
      }
    }
    await checkAll(m, r);
  }
  toString = () =>
    `refund(${showPick(this.pick)}, ${this.amount.kind === 'cents' ? this.amount.cents : this.amount.kind}${this.answered ? '' : ', unanswered'}${this.again ? ', again' : ''})`;
}
let refundKeys = 0;

/** The processor-request worker of a later start: every refund left pending is asked again with its key, and answered. */
class FinishPending implements Cmd {
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    r.trace.push('worker finishes what is in flight');
    for (const t of m.txs) for (const refund of t.refunds) if (refund.status === 'pending') modelRefundOutcome(t, refund);
    const later = { now: () => new Date(r.app.clock.now().getTime() + PROCESSOR_LEASE_MS + 1_000) };
    await finishAbandonedProcessorRequests(
      { db: r.database.db, processor: r.processor, clock: later, logger: r.app.logger, env: r.app.env },
      PROCESSOR_OPERATIONS,
      later.now(),
    );
    await checkAll(m, r);
  }
  toString = () => 'finishPending()';
}

const pick: fc.Arbitrary<Pick> = fc.record({
  n: fc.nat({ max: 1000 }),
  focused: fc.oneof({ weight: 2, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
});
const cents = fc.integer({ min: 1, max: 1500 });
const initCmd = fc
  .record({
    methodType: fc.constantFrom('sale' as const, 'authorize' as const, 'authorize' as const),
    amount: cents,
    noAmount: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 3, arbitrary: fc.constant(false) }),
    timeOut: fc.constantFrom(null, null, 1000, 3000),
  })
  .map(({ methodType, amount, noAmount, timeOut }) => new Init(methodType, methodType === 'authorize' && noAmount ? null : amount, timeOut));
const payCmd = fc
  .tuple(
    pick,
    fc.oneof(
      { weight: 5, arbitrary: fc.constant<PayMethod>('alpha') },
      { weight: 2, arbitrary: fc.constantFrom<PayMethod>('beta', 'paypal', 'refundDeclined') },
      { weight: 2, arbitrary: fc.constantFrom<PayMethod>('declined', 'insufficient', 'failure') },
    ),
  )
  .map(([p, method]) => new ConsumerPays(p, method));
const captureCmd = fc
  .tuple(
    pick,
    fc.oneof(
      { weight: 2, arbitrary: cents.map((c): CaptureAmount => ({ kind: 'cents', cents: c })) },
      { weight: 2, arbitrary: fc.constant<CaptureAmount>({ kind: 'half' }) },
      { weight: 2, arbitrary: fc.constantFrom<CaptureAmount>({ kind: 'all' }, { kind: 'allPlusOne' }) },
    ),
  )
  .map(([p, amount]) => new Capture(p, amount));
const voidCmd = fc.tuple(pick, fc.constantFrom('token' as const, 'token' as const, 'transactionNumber' as const)).map(([p, by]) => new Void(p, by));
const authorizeCmd = fc.tuple(pick, cents).map(([p, amount]) => new Reauthorize(p, amount));
const closeAuthCmd = pick.map((p) => new CloseAuth(p));
const cancelCmd = pick.map((p) => new Cancel(p));
const refundCmd = fc
  .tuple(
    pick,
    fc.oneof(
      { weight: 2, arbitrary: cents.map((c): RefundAmount => ({ kind: 'cents', cents: c })) },
      { weight: 2, arbitrary: fc.constant<RefundAmount>({ kind: 'half' }) },
      { weight: 2, arbitrary: fc.constantFrom<RefundAmount>({ kind: 'omitted' }, { kind: 'allPlusOne' }) },
    ),
    fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  )
  .map(([p, amount, answered, again]) => new Refund(p, amount, answered, again));
const finishCmd = fc.constant(new FinishPending());
/**
 * How a run opens: an init, or (as often) an authorization the consumer pays at once, so that captures, voids,
 * refunds and what an asynchronous connector tells of them come early in most runs.
 */
const openingCmds = fc.oneof(
  initCmd.map((init): Cmd[] => [init]),
  cents.map((amount): Cmd[] => [new Init('authorize', amount, null), new ConsumerPays({ n: 0, focused: true }, 'alpha')]),
);
const advanceCmd = fc
  .oneof({ weight: 3, arbitrary: fc.constantFrom(500, 1000, 3000) }, { weight: 1, arbitrary: fc.constant(HOLD_S) })
  .map((s) => new AdvanceClock(s));

/** fc.commands picks uniformly among these; repeating one makes it more likely. */
const commandArbitraries: fc.Arbitrary<Cmd>[] = [
  initCmd,
  ...[payCmd, payCmd],
  ...[captureCmd, captureCmd, captureCmd],
  voidCmd,
  ...[authorizeCmd, authorizeCmd],
  ...[closeAuthCmd, closeAuthCmd],
  cancelCmd,
  ...[advanceCmd, advanceCmd],
  ...[refundCmd, refundCmd, refundCmd],
  finishCmd,
];

/** A small seeded generator (mulberry32): the run's randomness comes from fast-check's seed, so a failure replays. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * After a run: each transaction the model says was paid has exactly one approved payment call at the processor, and
 * none was reversed; one never paid has none. Then what the processor holds for it agrees with the books.
 */
async function checkAtProcessor(m: Model, r: Real): Promise<void> {
  for (const [i, t] of m.txs.entries()) {
    const number = r.txs[i]!.number;
    const calls = r.connector.payments.filter((p) => p.transactionNumber === number);
    const approved = new Set(calls.flatMap((p) => (p.outcome === 'approved' ? [p.reference] : [])));
    const reversed = calls.filter((p) => r.connector.reversed.includes(p.requestKey));
    const paid = t.hold !== null || t.payments.some((p) => p.status === 'succeeded');
    if (approved.size !== (paid ? 1 : 0) || reversed.length > 0) {
      fail(
        r,
        `tx${i} (${number}) charged ${approved.size} times at the processor (${[...approved].join(', ')}), ${reversed.length} reversed; the model: ${paid ? 'paid once' : 'never paid'}`,
      );
    }
    const [reference] = [...approved];
    if (!reference) continue;
    const problems = await r.connector.checkAtProcessor(reference, (await r.client.get(number)).body);
    if (problems.length > 0) fail(r, `tx${i} (${number}) at the processor: ${problems.join('; ')}`);
  }
}

for (const connector of LIFECYCLE_CONNECTORS.map((make) => make())) {
  describe.skipIf(!connector.available)(`transaction lifecycle against a model, on ${connector.name}`, () => {
    let database: TestDatabase;
    let app: TestApp;
    let processor: PaymentProcessor;
    beforeAll(async () => {
      processor = await connector.start();
      database = await createTestDatabase();
      // One test address pays every link of every run: its hourly decline limit would stop the runs, not the model.
      app = await startTestApp(database, { processor, env: { ...UNTHROTTLED, DECLINES_PER_ADDRESS_PER_HOUR: '10000', ...connector.env } });
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await database?.drop();
      await connector.stop();
    });

    it('random sequences of lifecycle commands never differ from the model; each payment is charged once', { timeout: 600_000 }, async () => {
      await fc.assert(
        // Every run opens with an init, so the commands after it have something to act on.
        fc.asyncProperty(fc.integer(), openingCmds, fc.commands(commandArbitraries, { maxCommands: 25, size: 'max' }), async (seed, opening, commands) => {
          let run: { model: Model; real: Real } | undefined;
          const setup = async () => {
            const merchant: ProvisionedMerchant = await provisionTestMerchant(database.db);
            const real: Real = { app, database, processor, connector, random: seeded(seed), client: merchantClient(app, merchant), txs: [], trace: [] };
            run = { model: { now: 0, txs: [], rules: connector.rules }, real };
            return run;
          };
          await fc.asyncModelRun(setup, [...opening, ...commands]);
          await checkAtProcessor(run!.model, run!.real);
        }),
        // LIFECYCLE_MODEL_RUNS=1000 for a longer soak; the defaults keep each connector well under a minute.
        { numRuns: connector.runs },
      );
    });
  });
}
