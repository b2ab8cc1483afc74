import { Status, type Transaction } from '@svc/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { PROCESSOR_OPERATIONS } from '../../processor-operations';
import { PROCESSOR_LEASE_MS, startProcessorRequestWorker } from '../../modules/processor-requests';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { authorizedHold, cardNumbered, codeOf, consumerPays, paidSale } from '../../test/merchant-client';
import { localstripeAvailable, startLocalstripe } from '../../test/localstripe';
import type { Currency } from '@svc/protocol';
import { StripeProcessor } from './stripe-processor';

/**
 * The service on the Stripe connector, end to end against localstripe: what a merchant does, and what Stripe then
 * holds. localstripe keeps no Idempotency-Keys, so a request made twice here is de-duplicated by the service and the
 * connector alone.
 */
const available = localstripeAvailable();
const localstripe = available ? await startLocalstripe() : null;
afterAll(() => localstripe?.stop());
const account = { secretKey: 'sk_test_service', apiBase: localstripe?.url ?? 'http://127.0.0.1:9' };

/** The Stripe connector whose next capture reaches Stripe and then loses its answer, as a crash right after the call does. */
class AnswerLosingStripe extends StripeProcessor {
  loseNextCapture = false;
  override async capture(reference: string, amountCents: number, currency: Currency, requestKey: string) {
    const answer = await super.capture(reference, amountCents, currency, requestKey);
    if (!this.loseNextCapture) return answer;
    this.loseNextCapture = false;
    throw new Error('the answer was lost (test)');
  }
}

const stripe = new AnswerLosingStripe(account);
const t = useTestApp({ env: UNTHROTTLED, processor: stripe, merchantName: 'Stripe Shop' });

async function stripeGet<T>(path: string): Promise<T> {
  const res = await fetch(`${account.apiBase}${path}`, { headers: { authorization: `Bearer ${account.secretKey}` } });
  return (await res.json()) as T;
}
type Intent = { status: string; amount: number; metadata: Record<string, string>; latest_charge: { amount: number; amount_refunded: number } | null };
const intentOf = (transaction: Transaction) => stripeGet<Intent>(`/v1/payment_intents/${transaction.confirmation!.serviceReferenceId}?expand[]=latest_charge`);

describe.skipIf(!available)('payments on the Stripe connector (localstripe)', () => {
  it('a sale: Approved, the confirmation naming Stripe and its PaymentIntent, the intent naming the transaction', async () => {
    const sale = await paidSale(t.app, t.client, 2_500);
    const after = (await t.client.get(sale.transactionNumber)).body;
    expect(after).toMatchObject({ status: Status.Approved, confirmation: { acquirer: 'stripe', providerId: 'stripe', lastFourDigits: '4242' } });
    expect(after.confirmation!.serviceReferenceId).toMatch(/^pi_/);
    expect(await intentOf(after)).toMatchObject({ status: 'succeeded', amount: 2_500, metadata: { transactionNumber: sale.transactionNumber } });
  });

  it('an authorization captured in part: Stripe captures once, so the hold closes (9) and the rest goes back', async () => {
    const hold = await authorizedHold(t.app, t.client, 4_000);
    expect(await intentOf(hold.transaction)).toMatchObject({ status: 'requires_capture', amount: 4_000 });
    const captured = await t.client.pay({ token: hold.token, amount: 1_500 });
    expect(captured.body.transaction).toMatchObject({ status: Status.AuthorizationClosed, authorization: { capturedCents: 1_500, releasedCents: 2_500 } });
    const intent = await intentOf(hold.transaction);
    expect(intent.status).toBe('succeeded');
    expect(intent.latest_charge!.amount - intent.latest_charge!.amount_refunded).toBe(1_500);
  });

  it('a void cancels the intent', async () => {
    const hold = await authorizedHold(t.app, t.client, 900);
    expect((await t.client.void({ token: hold.token })).body.status).toBe(Status.Voided);
    expect((await intentOf(hold.transaction)).status).toBe('canceled');
  });

  it('a partial refund, then the rest; the same refund asked twice (one Idempotency-Key) refunds once', async () => {
    const sale = await paidSale(t.app, t.client, 3_000);
    const headers = { 'Idempotency-Key': `refund-${sale.transactionNumber}` };
    const part = await t.client.refund(sale.transactionNumber, { amount: 1_000 }, headers);
    expect(part.status).toBe(200);
    expect((await t.client.refund(sale.transactionNumber, { amount: 1_000 }, headers)).headers.get('idempotent-replayed')).toBe('true');
    const rest = await t.client.refund(sale.transactionNumber, {});
    expect(rest.body.transaction.status).toBe(Status.Refunded);
    const intent = await intentOf((await t.client.get(sale.transactionNumber)).body);
    expect(intent.latest_charge!.amount_refunded).toBe(3_000);
  });

  it.each(['4000000000000002', '4000000000009995', '4000000000000069', '4000000000000127', '4000000000000341'])(
    'the decline card %s: 402 card_declined, the transaction Declined',
    async (number) => {
      const created = await t.client.init({ amount: 10, currency: 'USD', methodType: 'sale' });
      const paid = await consumerPays(t.app, created.body, cardNumbered(number));
      expect(paid.status).toBe(402);
      expect(codeOf(paid.body)).toBe('card_declined');
      expect((await t.client.get(created.body.TransactionNumber)).body.status).toBe(Status.Declined);
    },
  );

  it('a capture whose answer was lost is finished by the worker after a restart, captured once', async () => {
    const hold = await authorizedHold(t.app, t.client, 2_000);
    stripe.loseNextCapture = true;
    const unanswered = await t.client.pay({ token: hold.token, amount: 2_000 });
    expect(unanswered.status).not.toBe(200);
    expect((await intentOf(hold.transaction)).status).toBe('succeeded');
    // A later start: a new connector (nothing in memory) and the clock past the request's lease.
    const later = { now: () => new Date(t.app.clock.now().getTime() + PROCESSOR_LEASE_MS + 1_000) };
    const worker = startProcessorRequestWorker({
      db: t.database.db,
      processor: new StripeProcessor(account),
      clock: later,
      logger: t.app.logger,
      env: t.app.env,
      operations: PROCESSOR_OPERATIONS,
    });
    await worker.stop();
    const after = (await t.client.get(hold.transactionNumber)).body;
    expect(after).toMatchObject({ status: Status.Captured, authorization: { capturedCents: 2_000 } });
    expect(after.payments.map((p) => p.amountCents)).toEqual([2_000]);
    expect((await intentOf(hold.transaction)).latest_charge!.amount_refunded).toBe(0);
  });
});
