import { endpointRequest, Status, type AuditLogPage, type PaymentMethods, type SdkSession, type Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../test/app';
import { provisionTestMerchant } from '../../test/fixtures';
import { useTestApp, UNTHROTTLED } from '../../test/harness';

const SHOP = 'https://shop.example.com';
const t = useTestApp({ env: UNTHROTTLED });

async function call<T>(apiKey: string, operationId: string, body?: unknown) {
  const { method, path } = endpointRequest(operationId);
  const res = await t.app.request(path, { method, headers: bearer(apiKey), ...(body !== undefined ? { body } : {}) });
  return { status: res.status, body: (await res.json()) as T };
}

async function session(clientId: string, methodType = 'manual_capture'): Promise<SdkSession> {
  const res = await t.app.request(endpointRequest('createSdkSession').path, { headers: { origin: SHOP }, body: { clientId, methodType, mode: 'sandbox' } });
  expect(res.status).toBe(200);
  return (await res.json()) as SdkSession;
}

const payWith = (s: SdkSession, method: string) =>
  t.app.request(endpointRequest('submitSdkPayment', { sessionId: s.sessionId }).path, {
    headers: { authorization: `Bearer ${s.sessionToken}`, origin: SHOP },
    body: { method, amount: 700, currency: 'USD' },
  });

describe("the payment methods a merchant's widgets offer", () => {
  it('are all four until the merchant chooses; then sessions offer only those and a payment by another method is refused', async () => {
    const merchant = await provisionTestMerchant(t.database.db, 'Methods', [SHOP]);
    expect(await call(merchant.apiKey, 'getPaymentMethods')).toEqual({ status: 200, body: { paymentMethods: ['card', 'paypal', 'applepay', 'googlepay'] } });
    const before = await session(merchant.clientId);
    expect(before.paymentMethods).toEqual(['card', 'paypal', 'applepay', 'googlepay']);

    const updated = await call<PaymentMethods>(merchant.apiKey, 'updatePaymentMethods', { paymentMethods: ['googlepay', 'card', 'card'] });
    expect(updated).toEqual({ status: 200, body: { paymentMethods: ['card', 'googlepay'] } });
    expect((await call(merchant.apiKey, 'getPaymentMethods')).body).toEqual({ paymentMethods: ['card', 'googlepay'] });
    for (const methodType of ['manual_capture', 'authorize', 'tokenize']) {
      expect((await session(merchant.clientId, methodType)).paymentMethods).toEqual(['card', 'googlepay']);
    }

    // A session opened before the change cannot pay with a method no longer offered; one still offered pays.
    const refused = await payWith(before, 'paypal');
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'payment_method_not_offered' });
    const paid = await payWith(before, 'googlepay');
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as Transaction).status).toBe(Status.AwaitingCommit);
  });

  it('are changed with the merchant API key only, at least one of the four, and audit-logged only when they change', async () => {
    const merchant = await provisionTestMerchant(t.database.db);
    expect((await call(merchant.branchApiKey, 'updatePaymentMethods', { paymentMethods: ['card'] })).status).toBe(403);
    expect((await call(merchant.branchApiKey, 'getPaymentMethods')).status).toBe(403);
    for (const body of [{ paymentMethods: [] }, { paymentMethods: ['cash'] }, { paymentMethods: 'card' }, {}]) {
      const res = await call<{ code: string; errors: { path: string }[] }>(merchant.apiKey, 'updatePaymentMethods', body);
      expect(res.status).toBe(400);
      expect(res.body.errors[0]!.path).toMatch(/^paymentMethods/);
    }
    await call(merchant.apiKey, 'updatePaymentMethods', { paymentMethods: ['card'] });
    await call(merchant.apiKey, 'updatePaymentMethods', { paymentMethods: ['card'] });
    const log = (await call<AuditLogPage>(merchant.apiKey, 'listAuditLog')).body.data;
    expect(log.map((e) => [e.action, e.details])).toEqual([
      ['payment_methods.updated', { paymentMethods: ['card'], previousPaymentMethods: ['card', 'paypal', 'applepay', 'googlepay'] }],
    ]);
  });
});
