import { Status, type PayResponse, type RefundResponse, type Transaction } from '@svc/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdyenProcessor } from '../../processor/adyen/adyen-processor';
import { ADYEN_TEST_ACCOUNT, ADYEN_TEST_HMAC_KEY, adyenDescriptions, adyenNotification, startAdyenDouble, type AdyenDouble } from '../../test/adyen-double';
import { PROCESSOR_OPERATIONS } from '../../processor-operations';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { finishAbandonedProcessorRequests } from '../processor-requests';
import { authorizedHold, codeOf, paidSale } from '../../test/merchant-client';

/**
 * The service on the Adyen connector (issue 33): Adyen answers captures, cancels and refunds `received`, and the
 * outcome arrives at POST /processors/adyen/webhooks. Adyen is msw answering from its published Checkout API v71
 * examples (every request checked against its schema); notifications are Webhooks-v1.json's examples, signed.
 */
const published = adyenDescriptions('the Adyen webhook tests');
const WEBHOOK = '/processors/adyen/webhooks';

const processor = new AdyenProcessor({ ...ADYEN_TEST_ACCOUNT, returnUrl: 'http://localhost:8080/' });
const t = useTestApp({
  env: {
    ...UNTHROTTLED,
    ADYEN_HMAC_KEY: ADYEN_TEST_HMAC_KEY,
    ADYEN_MERCHANT_ACCOUNT: ADYEN_TEST_ACCOUNT.merchantAccount,
    ADYEN_API_KEY: ADYEN_TEST_ACCOUNT.apiKey,
  },
  processor,
});

describe.skipIf(!published)('Adyen: outcomes that arrive by webhook', () => {
  let double: AdyenDouble;
  beforeAll(() => {
    double = startAdyenDouble(published!.checkout);
  });
  afterEach(() => expect(double.invalid).toEqual([]));
  afterAll(() => double.close());

  type Event = Parameters<typeof adyenNotification>[1];
  /** The modification Adyen took last on `path` (a suffix), and the payment it acts on. */
  const lastModification = (suffix: string) => {
    const request = [...double.requests].reverse().find((r) => r.path.endsWith(suffix))!;
    return request.answer as { pspReference: string; paymentPspReference: string; amount?: { value: number; currency: string } };
  };
  const notify = (
    event: Event,
    modification: ReturnType<typeof lastModification>,
    fields: Partial<Parameters<typeof adyenNotification>[2]> = {},
    key?: string,
  ) =>
    t.app.request(WEBHOOK, {
      body: adyenNotification(
        published!.webhooks,
        event,
        {
          pspReference: modification.pspReference,
          originalReference: modification.paymentPspReference,
          merchantReference: 'T-order',
          amount: modification.amount ?? { value: 0, currency: 'USD' },
          success: 'true',
          reason: '',
          ...fields,
        },
        key,
      ),
    });
  const get = async (transactionNumber: string) => (await t.client.get(transactionNumber)).body;

  it('a capture answers 202 with the payment pending and the amount reserved; CAPTURE records it, answered [accepted]', async () => {
    const hold = await authorizedHold(t.app, t.client, 5_000);
    const asked = await t.client.pay({ token: hold.token, amount: 2_000 }, { 'idempotency-key': 'adyen-capture-1' });
    expect(asked.status).toBe(202);
    const pending = asked.body as PayResponse;
    expect(pending.payment).toMatchObject({ amountCents: 2_000, status: 'pending', confirmationNumber: null });
    expect(pending.transaction.authorization).toMatchObject({ capturedCents: 0, availableCents: 3_000 });
    const capture = lastModification('/captures');
    // Captured on the authorization's pspReference; the payment was made with the transaction number as its reference.
    const payment = double.requests.find((r) => r.path === '/v71/payments' && r.body.reference === hold.transactionNumber);
    expect(capture.paymentPspReference).toBe((payment?.answer as { pspReference: string }).pspReference);

    // Until the outcome is told, the key is still in flight.
    const early = await t.client.pay({ token: hold.token, amount: 2_000 }, { 'idempotency-key': 'adyen-capture-1' });
    expect([early.status, codeOf(early.body)]).toEqual([409, 'idempotency_key_in_use']);

    const told = await notify('CAPTURE', capture);
    expect(told.status).toBe(200);
    expect(await told.text()).toBe('[accepted]');
    const after = await get(hold.transactionNumber);
    expect(after.authorization).toMatchObject({ capturedCents: 2_000, availableCents: 3_000 });
    expect(after.payments).toEqual([expect.objectContaining({ paymentId: pending.payment.paymentId, amountCents: 2_000, status: 'succeeded' })]);
    expect(after.sequence).toBeGreaterThan(pending.transaction.sequence);
    // The request's Idempotency-Key now answers the outcome.
    const replay = await t.client.pay({ token: hold.token, amount: 2_000 }, { 'idempotency-key': 'adyen-capture-1' });
    expect(replay.status).toBe(200);
    expect((replay.body as PayResponse).payment).toMatchObject({ paymentId: pending.payment.paymentId, status: 'succeeded' });
  });

  it('a notification sent twice changes nothing the second time', async () => {
    const hold = await authorizedHold(t.app, t.client, 4_000);
    await t.client.pay({ token: hold.token, amount: 1_000 });
    const capture = lastModification('/captures');
    expect((await notify('CAPTURE', capture)).status).toBe(200);
    const once = await get(hold.transactionNumber);
    const again = await notify('CAPTURE', capture);
    expect([again.status, await again.text()]).toEqual([200, '[accepted]']);
    expect(await get(hold.transactionNumber)).toEqual(once);
    expect(once.authorization).toMatchObject({ capturedCents: 1_000 });
  });

  it('a bad HMAC signature is a 401 and changes nothing; the signed one then records it', async () => {
    const hold = await authorizedHold(t.app, t.client, 4_000);
    await t.client.pay({ token: hold.token, amount: 1_500 });
    const capture = lastModification('/captures');
    const before = await get(hold.transactionNumber);
    const forged = await notify('CAPTURE', capture, {}, 'AA'.repeat(32));
    expect(forged.status).toBe(401);
    expect(codeOf(await forged.json())).toBe('unauthorized');
    const tampered = adyenNotification(published!.webhooks, 'CAPTURE', {
      pspReference: capture.pspReference,
      originalReference: capture.paymentPspReference,
      amount: capture.amount!,
    });
    tampered.notificationItems[0]!.NotificationRequestItem.success = 'false';
    expect((await t.app.request(WEBHOOK, { body: tampered })).status).toBe(401);
    expect(await get(hold.transactionNumber)).toEqual(before);
    expect((await notify('CAPTURE', capture)).status).toBe(200);
    expect((await get(hold.transactionNumber)).authorization).toMatchObject({ capturedCents: 1_500 });
  });

  it('a notification that arrives before the capture answer was recorded is applied when it is', async () => {
    const hold = await authorizedHold(t.app, t.client, 6_000);
    const held = double.holdAnswers('/captures');
    const asking = t.client.pay({ token: hold.token, amount: 2_500 });
    await held.arrived;
    const capture = lastModification('/captures');
    const early = await notify('CAPTURE', capture);
    expect([early.status, await early.text()]).toEqual([200, '[accepted]']);
    expect((await get(hold.transactionNumber)).authorization).toMatchObject({ capturedCents: 0 });
    held.release();
    const answered = await asking;
    // The outcome was already known when the answer was recorded: the merchant gets it at once.
    expect(answered.status).toBe(200);
    expect((answered.body as PayResponse).payment).toMatchObject({ amountCents: 2_500, status: 'succeeded' });
    expect((await get(hold.transactionNumber)).authorization).toMatchObject({ capturedCents: 2_500, availableCents: 3_500 });
  });

  it('CAPTURE_FAILED gives the reserved amount back to the hold and answers the key with the failure', async () => {
    const hold = await authorizedHold(t.app, t.client, 3_000);
    const asked = await t.client.pay({ token: hold.token, amount: 3_000 }, { 'idempotency-key': 'adyen-capture-failed' });
    expect(asked.status).toBe(202);
    expect((await notify('CAPTURE_FAILED', lastModification('/captures'), { reason: 'Capture Failed' })).status).toBe(200);
    expect((await get(hold.transactionNumber)).authorization).toMatchObject({ capturedCents: 0, availableCents: 3_000 });
    const replay = await t.client.pay({ token: hold.token, amount: 3_000 }, { 'idempotency-key': 'adyen-capture-failed' });
    expect([replay.status, codeOf(replay.body)]).toEqual([502, 'processor_failure']);
  });

  it('a refund stays pending (202) until REFUND; REFUND_FAILED frees what it reserved and keeps it failed', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 2_000);
    const first = await t.client.refund(transactionNumber, { amount: 500 });
    expect(first.status).toBe(202);
    expect((first.body as RefundResponse).refund).toMatchObject({ status: 'pending', amountCents: 500 });
    expect((first.body as RefundResponse).transaction).toMatchObject({ refundableCents: 1_500, refundedCents: 0 });
    expect((await notify('REFUND', lastModification('/refunds'))).status).toBe(200);
    expect(await get(transactionNumber)).toMatchObject({ status: Status.PartiallyRefunded, refundedCents: 500, refundableCents: 1_500 });

    const second = await t.client.refund(transactionNumber, { amount: 700 });
    expect(second.status).toBe(202);
    expect((await notify('REFUND_FAILED', lastModification('/refunds'), { reason: 'Refund Failed' })).status).toBe(200);
    const after = await get(transactionNumber);
    expect(after).toMatchObject({ refundedCents: 500, refundableCents: 1_500 });
    expect(after.refunds.map((r) => r.status)).toEqual(['succeeded', 'failed']);
  });

  it('a void is a cancel at Adyen, finished by CANCELLATION', async () => {
    const hold = await authorizedHold(t.app, t.client, 2_000);
    const voided = await t.client.void({ token: hold.token });
    expect(voided.status).toBe(200);
    expect((voided.body as Transaction).status).toBe(Status.Voided);
    const cancel = lastModification('/cancels');
    expect(cancel.paymentPspReference).toBeTruthy();
    const rows = await t.database.sql<{ state: string }[]>`select state from processor_requests where pending_reference = ${cancel.pspReference}`;
    expect(rows.map((r) => r.state)).toEqual(['in_flight']);
    expect((await notify('CANCELLATION', cancel)).status).toBe(200);
    const done = await t.database.sql<
      { state: string; outcome: string }[]
    >`select state, outcome from processor_requests where pending_reference = ${cancel.pspReference}`;
    expect(done).toEqual([{ state: 'done', outcome: 'released' }]);
  });

  it('the worker asks Adyen again about a capture still pending, with the same key, and it stays pending until CAPTURE', async () => {
    const hold = await authorizedHold(t.app, t.client, 4_000);
    expect((await t.client.pay({ token: hold.token, amount: 1_000 })).status).toBe(202);
    const capture = lastModification('/captures');
    const asked = double.requests.filter((r) => (r.answer as { pspReference?: string } | undefined)?.pspReference === capture.pspReference);
    const deps = { db: t.database.db, processor, clock: t.app.clock, logger: t.app.logger, env: t.app.env };
    // Past the request's lease: the worker takes it over and asks again.
    await finishAbandonedProcessorRequests(deps, PROCESSOR_OPERATIONS, new Date(t.app.clock.now().getTime() + 3_600_000));
    const again = double.requests.filter((r) => r.headers['idempotency-key'] === asked[0]!.headers['idempotency-key']);
    expect(again).toHaveLength(2);
    expect(again[1]!.answer).toEqual(again[0]!.answer);
    const rows = await t.database.sql<
      { state: string; attempts: number }[]
    >`select state, attempts from processor_requests where pending_reference = ${capture.pspReference}`;
    expect(rows).toEqual([{ state: 'in_flight', attempts: 2 }]);
    expect((await notify('CAPTURE', capture)).status).toBe(200);
    expect((await get(hold.transactionNumber)).authorization).toMatchObject({ capturedCents: 1_000 });
  });

  it('a capture whose webhook never comes is set aside for review past the give-up time; the webhook still records it', async () => {
    const hold = await authorizedHold(t.app, t.client, 2_500);
    expect((await t.client.pay({ token: hold.token, amount: 2_500 })).status).toBe(202);
    const capture = lastModification('/captures');
    const deps = { db: t.database.db, processor, clock: t.app.clock, logger: t.app.logger, env: t.app.env };
    const pastGiveUp = new Date(t.app.clock.now().getTime() + (t.app.env.PROCESSOR_REQUEST_GIVE_UP_S + 60) * 1000);
    await finishAbandonedProcessorRequests(deps, PROCESSOR_OPERATIONS, pastGiveUp);
    const aside = await t.database.sql<
      { state: string; last_error: string }[]
    >`select state, last_error from processor_requests where pending_reference = ${capture.pspReference}`;
    expect(aside).toEqual([{ state: 'needs_review', last_error: 'the processor took the call but no webhook told its outcome' }]);
    expect((await get(hold.transactionNumber)).authorization).toMatchObject({ capturedCents: 0, availableCents: 0 });
    expect((await notify('CAPTURE', capture)).status).toBe(200);
    expect((await get(hold.transactionNumber)).authorization).toMatchObject({ capturedCents: 2_500 });
  });

  it('accepts a notification for no request of ours and other events, changing nothing; refuses a malformed body with 400', async () => {
    const unknown = await notify('CAPTURE', {
      pspReference: 'ZZZZZZZZZZZZZZZZ',
      paymentPspReference: 'YYYYYYYYYYYYYYYY',
      amount: { value: 100, currency: 'EUR' },
    });
    expect([unknown.status, await unknown.text()]).toEqual([200, '[accepted]']);
    const authorisation = await t.app.request(WEBHOOK, {
      body: adyenNotification(published!.webhooks, 'AUTHORISATION', { pspReference: 'QFQTPCQ8HXSKGK82', amount: { value: 1000, currency: 'EUR' } }),
    });
    expect(authorisation.status).toBe(200);
    const malformed = await t.app.request(WEBHOOK, { body: { live: 'false', notificationItems: [{ NotificationRequestItem: { pspReference: 1 } }] } });
    expect([malformed.status, codeOf(await malformed.json())]).toEqual([400, 'validation_failed']);
    const notJson = await t.app.request(WEBHOOK, { rawBody: '{"live": ', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
  });
});
