import { Status, type RequiresAction, type Transaction } from '@svc/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADYEN_TEST_ACCOUNT, adyenDescriptions, CHALLENGE_CARDS, startAdyenDouble, type AdyenDouble } from '../../test/adyen-double';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { cardNumbered, consumerPays } from '../../test/merchant-client';
import { AdyenProcessor } from './adyen-processor';

/**
 * 3-D Secure on the Adyen connector, the whole service against the double built from Adyen's published Checkout API
 * v71: the consumer opens the service's bank page, is sent to Adyen's, and comes back to the return URL Adyen was given,
 * with the `redirectResult` the bank (the double's `bankAnswers`) gave.
 */
const published = adyenDescriptions('the Adyen 3-D Secure tests');
const [CHALLENGE] = [...CHALLENGE_CARDS];
const t = useTestApp({ env: UNTHROTTLED, processor: new AdyenProcessor({ ...ADYEN_TEST_ACCOUNT, returnUrl: 'https://pay.example.com' }) });

describe.skipIf(!published)('3-D Secure on the Adyen connector (the published Checkout API)', () => {
  let double: AdyenDouble;
  beforeAll(() => {
    double = startAdyenDouble(published!.checkout);
  });
  afterEach(() => expect(double.invalid).toEqual([]));
  afterAll(() => double.close());

  const transactionOf = async (number: string): Promise<Transaction> => (await t.client.get(number)).body;
  const detailsCalls = () => double.requests.filter((r) => r.path === '/v71/payments/details');

  /** A link paid with the challenge card: the 202, Adyen's page the service's bank page sends to, and the return URL Adyen got. */
  async function sentToTheBank(methodType: 'sale' | 'authorize' = 'sale') {
    const created = (await t.client.init({ amount: 30, currency: 'EUR', methodType })).body;
    const sent = double.requests.length;
    const paid = await consumerPays(t.app, created, cardNumbered(CHALLENGE!));
    expect(paid.status).toBe(202);
    const payment = double.requests[sent]!;
    const answer = payment.answer as { pspReference: string; action: { url: string } };
    const bankPage = await fetch(`${t.app.baseUrl}${new URL((paid.body as unknown as RequiresAction).action.url).pathname}`, { redirect: 'manual' });
    expect([bankPage.status, bankPage.headers.get('location')]).toEqual([303, answer.action.url]);
    const returnPath = new URL(String(payment.body.returnUrl)).pathname;
    return { created, pspReference: answer.pspReference, returnPath, linkPage: created.transactionPage.qrURL };
  }

  /** The shopper back from the bank, as Adyen's redirect opens the return URL. */
  const shopperReturns = (returnPath: string, redirectResult: string) =>
    fetch(`${t.app.baseUrl}${returnPath}?redirectResult=${encodeURIComponent(redirectResult)}`, { redirect: 'manual' });

  it('completed at the bank: the return sends the redirect result to /payments/details and the payment is approved', async () => {
    const { created, pspReference, returnPath, linkPage } = await sentToTheBank();
    expect((await transactionOf(created.TransactionNumber)).status).toBe(Status.AwaitingAuthentication);
    const back = await shopperReturns(returnPath, double.bankAnswers(pspReference, true));
    expect([back.status, back.headers.get('location')]).toEqual([303, linkPage]);
    const after = await transactionOf(created.TransactionNumber);
    expect(after).toMatchObject({ status: Status.Approved, confirmation: { acquirer: 'adyen', lastFourDigits: '1237' } });
    const [details] = detailsCalls().slice(-1);
    expect(details?.answer).toMatchObject({ resultCode: 'Authorised', pspReference });
    expect(after.confirmation?.threeDSecure).toMatchObject({ authenticated: true, flow: 'challenge' });
  });

  it('refused at the bank: declined authentication_failed with refusal reason 11', async () => {
    const { created, pspReference, returnPath } = await sentToTheBank('authorize');
    await shopperReturns(returnPath, double.bankAnswers(pspReference, false));
    expect(await transactionOf(created.TransactionNumber)).toMatchObject({
      status: Status.Declined,
      lastDeclineCode: 'authentication_failed',
      lastDeclineProcessorCode: '11',
    });
  });

  it('the return twice sends the details once and approves one payment', async () => {
    const { created, pspReference, returnPath, linkPage } = await sentToTheBank();
    const redirectResult = double.bankAnswers(pspReference, true);
    const before = detailsCalls().length;
    const answers = await Promise.all([shopperReturns(returnPath, redirectResult), shopperReturns(returnPath, redirectResult)]);
    expect(answers.map((a) => [a.status, a.headers.get('location')])).toEqual([
      [303, linkPage],
      [303, linkPage],
    ]);
    expect(detailsCalls().length - before).toBe(1);
    const after = await transactionOf(created.TransactionNumber);
    expect(after.payments.map((p) => [p.status, p.amountCents])).toEqual([['succeeded', 3_000]]);
  });

  it('a tampered redirectResult (Adyen answers 422) is taken as no answer: the payment is cancelled at Adyen and not charged', async () => {
    const { created, returnPath } = await sentToTheBank();
    const sent = double.requests.length;
    const back = await shopperReturns(returnPath, 'tampered');
    expect(back.status).toBe(303);
    expect(double.requests.slice(sent).map((r) => [r.path, r.answer && (r.answer as { status?: string }).status])).toEqual([
      ['/v71/payments/details', 422],
      ['/v71/cancels', 'received'],
    ]);
    expect(double.requests.at(-1)!.body).toMatchObject({ paymentReference: created.TransactionNumber });
    const after = await transactionOf(created.TransactionNumber);
    expect(after.status).not.toBe(Status.Approved);
    expect(after.payments.filter((p) => p.status === 'succeeded')).toEqual([]);
  });
});
