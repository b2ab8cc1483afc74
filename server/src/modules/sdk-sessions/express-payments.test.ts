import { Status, type CommitResponse, type SdkSession, type Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';

/** What the Express component sends (sdk-express/README.md): a wallet, the amount, and the sheet's billing and shipping details. */
const SHOP = 'https://shop.example.com';
const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Express Shop', origins: [SHOP] });
const PARTY = {
  fullName: 'Ada Lovelace',
  firstName: 'Ada',
  lastName: 'Lovelace',
  addressLine1: '12 Analytical Row',
  addressLine2: 'Flat 2',
  city: 'London',
  state: 'LDN',
  postalCode: 'NW1 6XE',
  country: 'GB',
  email: 'ada@example.com',
};

async function session(methodType: 'manual_capture' | 'authorize'): Promise<SdkSession> {
  const res = await t.app.request('/sdk/sessions', { headers: { origin: SHOP }, body: { clientId: t.merchant.clientId, methodType, mode: 'sandbox' } });
  expect(res.status).toBe(200);
  return (await res.json()) as SdkSession;
}

const pay = (s: SdkSession, body: Record<string, unknown>) =>
  t.app.request(`/sdk/sessions/${s.sessionId}/payments`, { headers: { authorization: `Bearer ${s.sessionToken}`, origin: SHOP }, body });

describe('Express wallet payments', () => {
  it('take billing and shipping details with a wallet from the session origin, keep them out of the transaction, and commit', async () => {
    const s = await session('manual_capture');
    const res = await pay(s, {
      method: 'googlepay',
      amount: 1050,
      currency: 'USD',
      billingInformation: PARTY,
      shippingInformation: { ...PARTY, addressLine2: '' },
    });
    expect(res.status).toBe(200);
    const transaction = (await res.json()) as Transaction;
    expect(transaction).toMatchObject({ status: Status.AwaitingCommit, amountCents: 1050, paymentMethodData: { PaymentType: 'googlepay' } });
    // Personal data is the merchant's (onPay gives it to the page); the service neither stores nor echoes it.
    expect(JSON.stringify(transaction)).not.toMatch(/Lovelace|ada@example\.com|Analytical/);
    const done = await t.client.call<CommitResponse>('POST', `/transactions/${transaction.TransactionNumber}/commit`, { amount: 1050, currency: 'USD' });
    expect(done.body).toMatchObject({ success: true, transactionStatus: Status.Approved });
  });

  it('refuse details that are not the sheet shape, naming the field', async () => {
    const s = await session('authorize');
    const res = await pay(s, { method: 'paypal', amount: 500, currency: 'USD', shippingInformation: { ...PARTY, phone: '555' } });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { code: string; errors: { path: string }[] };
    expect(problem.code).toBe('validation_failed');
    // Each unknown field is named at its own path (the endpoint router's rule for unrecognized keys).
    expect(problem.errors.map((error) => error.path)).toContain('shippingInformation.phone');
  });
});
