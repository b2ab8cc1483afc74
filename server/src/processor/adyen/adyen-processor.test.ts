import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ADYEN_TEST_ACCOUNT, adyenDescriptions, CHALLENGE_CARDS, startAdyenDouble, type AdyenDouble } from '../../test/adyen-double';
import { loadEnv } from '../../env';
import { portGuarantees } from '../port-guarantees';
import { processorForMode } from '../processor-for-mode';
import { AdyenProcessor } from './adyen-processor';

const published = adyenDescriptions('the Adyen connector tests');
const card = (number: string) => ({ method: 'card' as const, card: { number, expMonth: 3, expYear: 2030, cvc: '737' } });
const details = { transactionNumber: 'T1000234', installments: 1 };

describe.skipIf(!published)('the Adyen connector against the published Checkout API v71', () => {
  let double: AdyenDouble;
  const processor = () => new AdyenProcessor({ ...ADYEN_TEST_ACCOUNT, returnUrl: 'https://pay.example.com/' });
  const subject = () => {
    double ??= startAdyenDouble(published!.checkout);
    return {
      processor: processor(),
      currency: 'EUR' as const,
      cards: { approved: card('4111111111111111').card, declined: card('4000000000000002').card },
      cannotFindPaymentByKey: true as const,
    };
  };
  afterEach(() => {
    // Every request the connector sent is one Adyen's published schema takes.
    expect(double?.invalid ?? []).toEqual([]);
    double?.failNetwork(false);
  });
  afterAll(() => double?.close());

  portGuarantees('adyen', subject);

  it('sends a sale as Adyen takes it: the card fields, the transaction number as reference, the key as Idempotency-Key, captured at once', async () => {
    const { processor } = subject();
    const sent = double.requests.length;
    const approved = await processor.sale(card('4111 1111 1111 1111'), 1_250, 'EUR', 'prq_sale1', details);
    expect(approved).toMatchObject({ outcome: 'approved', processor: 'adyen', authNumber: '044925', paymentMethodName: 'Visa', lastFourDigits: '1111' });
    const request = double.requests[sent]!;
    expect(request.path).toBe('/v71/payments');
    expect(request.headers).toMatchObject({ 'x-api-key': ADYEN_TEST_ACCOUNT.apiKey, 'idempotency-key': 'prq_sale1' });
    expect(request.body).toMatchObject({
      merchantAccount: ADYEN_TEST_ACCOUNT.merchantAccount,
      reference: 'T1000234',
      amount: { value: 1_250, currency: 'EUR' },
      paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737' },
      captureDelayHours: 0,
    });
    expect(request.body).not.toHaveProperty('installments');
  });

  it('asks for manual capture on an authorization, and sends the installments chosen', async () => {
    const { processor } = subject();
    const sent = double.requests.length;
    await processor.authorize(card('4111111111111111'), 9_000, 'EUR', 'prq_auth1', { transactionNumber: 'T77', installments: 6 });
    expect(double.requests[sent]!.body).toMatchObject({ additionalData: { manualCapture: 'true' }, installments: { value: 6 } });
    expect(double.requests[sent]!.body).not.toHaveProperty('captureDelayHours');
  });

  it.each([
    ['4000000000000002', 'card_declined', '2'],
    ['4000000000009995', 'insufficient_funds', '12'],
    ['4000000000000069', 'expired_card', '6'],
    ['4000000000000127', 'incorrect_cvc', '24'],
  ])('maps a refusal of %s to %s, keeping refusalReasonCode %s', async (number, code, processorCode) => {
    const { processor } = subject();
    expect(await processor.sale(card(number), 1_000, 'EUR', `prq_decl${number}`, details)).toEqual({
      outcome: 'declined',
      processor: 'adyen',
      code,
      processorCode,
    });
  });

  it('answers captures, refunds and cancels as pending under the modification pspReference, on the payment pspReference', async () => {
    const { processor } = subject();
    const hold = await processor.authorize(card('4111111111111111'), 5_000, 'EUR', 'prq_auth2', details);
    if (hold.outcome !== 'approved') throw new Error('not approved');
    const sent = double.requests.length;
    const capture = await processor.capture(hold.reference, 2_000, 'EUR', 'prq_cap2');
    expect(capture).toMatchObject({ outcome: 'pending', processor: 'adyen', reference: expect.stringMatching(/^[A-Z0-9]{16}$/) });
    const refund = await processor.refund(hold.reference, 500, 'prq_ref2', 'EUR');
    const release = await processor.release(hold.reference, 3_000, 'prq_rel2');
    expect([refund?.outcome, release?.outcome]).toEqual(['pending', 'pending']);
    expect(double.requests.slice(sent).map((r) => [r.path, r.headers['idempotency-key'], r.body.reference])).toEqual([
      [`/v71/payments/${hold.reference}/captures`, 'prq_cap2', 'prq_cap2'],
      [`/v71/payments/${hold.reference}/refunds`, 'prq_ref2', 'prq_ref2'],
      [`/v71/payments/${hold.reference}/cancels`, 'prq_rel2', 'prq_rel2'],
    ]);
    expect(double.requests[sent]!.body).toMatchObject({ amount: { value: 2_000, currency: 'EUR' } });
  });

  it('throws, never answers, when Adyen is unreachable: the request stays in flight', async () => {
    const { processor } = subject();
    double.failNetwork(true);
    await expect(processor.sale(card('4111111111111111'), 1_000, 'EUR', 'prq_down', details)).rejects.toThrow();
    await expect(processor.capture('993617894903480A', 1_000, 'EUR', 'prq_down_cap')).rejects.toThrow();
  });

  it('takes a request Adyen refuses as it stands (a 401 for a wrong key) as a failure it reported', async () => {
    subject();
    const wrongKey = new AdyenProcessor({ ...ADYEN_TEST_ACCOUNT, apiKey: 'wrong', returnUrl: 'https://pay.example.com/' });
    expect(await wrongKey.capture('993617894903480A', 1_000, 'EUR', 'prq_wrongkey')).toMatchObject({
      outcome: 'failed',
      reason: expect.stringMatching(/^Adyen 401/),
    });
  });

  it('reverses an approved payment on its pspReference, and one still unanswered by its own reference', async () => {
    const { processor } = subject();
    const sale = await processor.sale(card('4111111111111111'), 1_000, 'EUR', 'prq_rev1', details);
    if (sale.outcome !== 'approved') throw new Error('not approved');
    const sent = double.requests.length;
    await processor.reverse('prq_rev1');
    expect(double.requests[sent]).toMatchObject({ path: `/v71/payments/${sale.reference}/reversals`, headers: { 'idempotency-key': 'prq_rev1-reversal' } });

    const held = double.holdAnswers('/payments');
    const slow = processor.sale(card('4111111111111111'), 1_000, 'EUR', 'prq_rev2', { transactionNumber: 'T555', installments: 1 });
    await held.arrived;
    await processor.reverse('prq_rev2');
    held.release();
    await slow;
    // Adyen's cancel by the payment's own reference, for a payment whose pspReference never came back.
    expect(double.requests.find((r) => r.path === '/v71/cancels')).toMatchObject({ body: { paymentReference: 'T555', reference: 'prq_rev2' } });
  });

  it('throws when asked to reverse a payment this process did not make, and refuses its key; a declined one has nothing to undo', async () => {
    const { processor } = subject();
    const sale = await processor.sale(card('4111111111111111'), 1_000, 'EUR', 'prq_rev3', details);
    expect(sale.outcome).toBe('approved');
    // The same account after a restart: Adyen finds no payment by its key, so the reversal cannot be made or ruled out.
    const restarted = subject().processor;
    const sent = double.requests.length;
    await expect(restarted.reverse('prq_rev3')).rejects.toThrow(/cannot reverse a payment this process did not make/);
    expect(double.requests.length).toBe(sent);
    expect((await restarted.sale(card('4111111111111111'), 1_000, 'EUR', 'prq_rev3', details)).outcome).toBe('failed');

    expect((await processor.sale(card('4000000000000002'), 1_000, 'EUR', 'prq_rev4', details)).outcome).toBe('declined');
    await expect(processor.reverse('prq_rev4')).resolves.toBeUndefined();
  });
});

describe.skipIf(!published)('3-D Secure on the Adyen connector, against the published Checkout API v71', () => {
  const [challenge] = [...CHALLENGE_CARDS];
  let double: AdyenDouble;
  const processor = () => new AdyenProcessor({ ...ADYEN_TEST_ACCOUNT, returnUrl: 'https://pay.example.com/' });
  const start = () => (double ??= startAdyenDouble(published!.checkout));
  afterEach(() => expect(double?.invalid ?? []).toEqual([]));
  afterAll(() => double?.close());

  async function sentToTheBank(adyen: AdyenProcessor, key: string) {
    start();
    const sent = double.requests.length;
    const asked = await adyen.authorize(card(challenge!), 4_000, 'EUR', key, { transactionNumber: `T${key.slice(4)}`, installments: 1 });
    if (asked.outcome !== 'requires_action') throw new Error(`not sent to the bank: ${JSON.stringify(asked)}`);
    return { asked, request: double.requests[sent]! };
  }

  it("answers RedirectShopper with the bank's page, the payment's return URL naming its request key", async () => {
    const { asked, request } = await sentToTheBank(processor(), 'prq_3ds_redirect');
    expect(asked).toEqual({
      outcome: 'requires_action',
      processor: 'adyen',
      reference: expect.stringMatching(/^[A-Z0-9]{16}$/),
      actionUrl: expect.stringMatching(/^https:\/\/checkoutshopper-test\.adyen\.com\//),
    });
    expect(request.body).toMatchObject({
      returnUrl: 'https://pay.example.com/authentication-returns/prq_3ds_redirect',
      authenticationData: { threeDSRequestData: { nativeThreeDS: 'disabled' } },
    });
  });

  it('completed at the bank: /payments/details with the redirect result approves the same payment, with its 3-D Secure', async () => {
    const adyen = processor();
    const { asked } = await sentToTheBank(adyen, 'prq_3ds_done');
    const redirectResult = double.bankAnswers(asked.reference, true);
    const sent = double.requests.length;
    const completed = await adyen.completeAuthentication(asked.reference, 'prq_3ds_done', { redirectResult });
    expect(completed).toMatchObject({
      outcome: 'approved',
      processor: 'adyen',
      reference: asked.reference,
      paymentMethodName: 'Visa',
      lastFourDigits: '1237',
      threeDSecure: { authenticated: true, flow: 'challenge' },
    });
    expect(double.requests.slice(sent).map((r) => [r.path, r.headers['idempotency-key'], r.body])).toEqual([
      ['/v71/payments/details', 'prq_3ds_done-details', { details: { redirectResult } }],
    ]);
    // The payment is then Adyen's to capture and reverse by its pspReference.
    await adyen.reverse('prq_3ds_done');
    expect(double.requests.at(-1)!.path).toBe(`/v71/payments/${asked.reference}/reversals`);
  });

  it('refused at the bank: declined authentication_failed, keeping refusal reason 11', async () => {
    const adyen = processor();
    const { asked } = await sentToTheBank(adyen, 'prq_3ds_refused');
    const redirectResult = double.bankAnswers(asked.reference, false);
    expect(await adyen.completeAuthentication(asked.reference, 'prq_3ds_refused', { redirectResult })).toEqual({
      outcome: 'declined',
      processor: 'adyen',
      code: 'authentication_failed',
      processorCode: '11',
    });
  });

  it('the details sent twice decide once: the same answer, one /payments/details per key', async () => {
    const adyen = processor();
    const { asked } = await sentToTheBank(adyen, 'prq_3ds_twice');
    const redirectResult = double.bankAnswers(asked.reference, true);
    const first = await adyen.completeAuthentication(asked.reference, 'prq_3ds_twice', { redirectResult });
    expect(await adyen.completeAuthentication(asked.reference, 'prq_3ds_twice', { redirectResult })).toEqual(first);
    // A process that lost the answer (a restart) asks again under the same Idempotency-Key, and Adyen answers the same.
    const restarted = await processor().completeAuthentication(asked.reference, 'prq_3ds_twice', { redirectResult });
    expect(restarted).toMatchObject({ outcome: 'approved', reference: asked.reference });
    const details = double.requests.filter(
      (r) => r.path === '/v71/payments/details' && r.body.details && r.headers['idempotency-key'] === 'prq_3ds_twice-details',
    );
    expect(details).toHaveLength(2);
    expect(new Set(details.map((r) => JSON.stringify(r.answer))).size).toBe(1);
  });

  it('back without the bank’s answer: the payment is cancelled by its own reference and declined authentication_failed', async () => {
    const adyen = processor();
    const { asked } = await sentToTheBank(adyen, 'prq_3ds_back');
    expect(await adyen.completeAuthentication(asked.reference, 'prq_3ds_back', {})).toEqual({
      outcome: 'declined',
      processor: 'adyen',
      code: 'authentication_failed',
      processorCode: 'RedirectShopper',
    });
    expect(double.requests.at(-1)).toMatchObject({ path: '/v71/cancels', body: { paymentReference: 'T3ds_back', reference: 'prq_3ds_back' } });
    expect(double.requests.filter((r) => r.path === '/v71/payments/details' && r.headers['idempotency-key'] === 'prq_3ds_back-details')).toEqual([]);
  });

  it('a payment still at the bank is reversed by its own reference, and its completion refused afterwards', async () => {
    const adyen = processor();
    const { asked } = await sentToTheBank(adyen, 'prq_3ds_rev');
    await adyen.reverse('prq_3ds_rev');
    expect(double.requests.at(-1)).toMatchObject({ path: '/v71/cancels', body: { paymentReference: 'T3ds_rev', reference: 'prq_3ds_rev' } });
    const redirectResult = double.bankAnswers(asked.reference, true);
    expect(await adyen.completeAuthentication(asked.reference, 'prq_3ds_rev', { redirectResult })).toMatchObject({ outcome: 'failed' });
  });

  it('a payment at the bank that this process does not know (a restart, another instance) is reversed on the reference its authentication kept', async () => {
    const { asked } = await sentToTheBank(processor(), 'prq_3ds_elsewhere');
    const restarted = processor();
    const sent = double.requests.length;
    await restarted.reverse('prq_3ds_elsewhere', asked.reference);
    expect(double.requests.slice(sent).map((r) => [r.path, r.headers['idempotency-key'], r.body])).toEqual([
      [
        `/v71/payments/${asked.reference}/reversals`,
        'prq_3ds_elsewhere-reversal',
        { merchantAccount: ADYEN_TEST_ACCOUNT.merchantAccount, reference: 'prq_3ds_elsewhere' },
      ],
    ]);
    // Without the reference it still cannot tell, and says so.
    await expect(processor().reverse('prq_3ds_elsewhere')).rejects.toThrow(/did not make/);
  });

  it('a redirectResult Adyen refuses (422) is no answer: it throws, so the service reverses the payment, and nothing is kept for the key', async () => {
    const adyen = processor();
    const { asked } = await sentToTheBank(adyen, 'prq_3ds_tampered');
    await expect(adyen.completeAuthentication(asked.reference, 'prq_3ds_tampered', { redirectResult: 'tampered' })).rejects.toThrow(/Adyen 422/);
    const sent = double.requests.length;
    await adyen.reverse('prq_3ds_tampered', asked.reference);
    expect(double.requests.slice(sent)).toMatchObject([{ path: '/v71/cancels', body: { paymentReference: 'T3ds_tampered', reference: 'prq_3ds_tampered' } }]);
  });
});

describe('PROCESSOR=adyen', () => {
  it('gives the Adyen connector on the default account, with what it can do', () => {
    const adyen = processorForMode(
      loadEnv({
        SVC_MODE: 'production',
        DATABASE_URL: 'postgres://svc@db/svc',
        PUBLIC_BASE_URL: 'https://pay.example.com',
        PROCESSOR: 'adyen',
        ADYEN_API_KEY: ADYEN_TEST_ACCOUNT.apiKey,
        ADYEN_MERCHANT_ACCOUNT: ADYEN_TEST_ACCOUNT.merchantAccount,
        ADYEN_HMAC_KEY: 'AB'.repeat(32),
      }),
    );
    expect(adyen).toBeInstanceOf(AdyenProcessor);
    expect(adyen.capabilities).toEqual({
      multipleCaptures: true,
      reauthorize: false,
      closeAuth: true,
      refunds: true,
      wallets: false,
      installments: true,
      threeDSecure: true,
      savedCards: false,
    });
  });
});
