import { ENDPOINTS } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { createMerchantClient } from './client';
import { MERCHANT_ROUTES } from './endpoint-table';
import { SvcApiError } from './errors';

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A fetch that answers from a list, in order, and records each request. */
function scripted(...answers: (() => Response)[]) {
  const seen: Seen[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, method: String(init.method), headers: init.headers as Record<string, string>, body: init.body as string | undefined });
    const next = answers.shift();
    if (!next) throw new Error('no answer left');
    return next();
  }) as unknown as typeof globalThis.fetch;
  return { seen, fetch };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const problem = (code: string, status: number, headers: Record<string, string> = {}) =>
  json(status, { type: `/docs/errors#${code}`, title: 'A title', status, detail: `About ${code}.`, code, requestId: 'req-1' }, headers);

describe('the merchant client', () => {
  it("has a method for every endpoint of the table a merchant's key may call, and no other", () => {
    const expected = ENDPOINTS.filter((e) => e.auth.some((who: string) => who === 'merchant' || who === 'merchant_key') && !e.response.contentType).map(
      (e) => e.operationId,
    );
    expect(expected).toContain('initTransaction');
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x' });
    // …and the listings again where stripe-node's habit looks for them (transactions.list, auditLog.list, events.list).
    expect(Object.keys(client).sort()).toEqual([...expected, 'auditLog', 'events', 'transactions'].sort());
    expect(client.transactions.list).toBe(client.listTransactions);
    expect(client.auditLog.list).toBe(client.listAuditLog);
    expect(client.events.list).toBe(client.listEvents);
    expect(Object.keys(MERCHANT_ROUTES).sort()).toEqual([...expected].sort());
  });

  it('sends the key, fills the path, sends the body, and generates an Idempotency-Key for a mutating call', async () => {
    const { seen, fetch } = scripted(json(200, { TransactionNumber: 'T 1' }), json(200, { TransactionNumber: 'T 1' }));
    const client = createMerchantClient({ baseUrl: 'http://svc.test/', apiKey: 'sk_x', fetch });
    await client.commit({ transactionNumber: 'T 1' }, { amount: 500, currency: 'USD' });
    await client.getTransaction({ transactionNumber: 'T 1' });
    expect(seen[0]).toMatchObject({ url: 'http://svc.test/transactions/T%201/commit', method: 'POST', body: '{"amount":500,"currency":"USD"}' });
    expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer sk_x', 'content-type': 'application/json' });
    expect(seen[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]).toMatchObject({ url: 'http://svc.test/transactions/T%201', method: 'GET', body: undefined });
    expect(seen[1]!.headers['idempotency-key']).toBeUndefined();
  });

  it('uses the Idempotency-Key it is given', async () => {
    const { seen, fetch } = scripted(json(200, {}));
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch });
    await client.pay({ token: 'tok', amount: 100 }, { idempotencyKey: 'order-17-capture' });
    expect(seen[0]!.headers['idempotency-key']).toBe('order-17-capture');
  });

  it('tries a 503 again after Retry-After with the same Idempotency-Key, and resolves with the answer that follows', async () => {
    const { seen, fetch } = scripted(problem('database_unavailable', 503, { 'retry-after': '0' }), json(200, { TransactionNumber: 'T1' }));
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch });
    await expect(client.initTransaction({ amount: 5, currency: 'USD' })).resolves.toEqual({ TransactionNumber: 'T1' });
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers['idempotency-key']).toBe(seen[0]!.headers['idempotency-key']);
  });

  it('gives up after maxRetries tries and rejects with the 503', async () => {
    const unavailable = problem('database_unavailable', 503, { 'retry-after': '0' });
    const { seen, fetch } = scripted(unavailable, unavailable, unavailable);
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch, maxRetries: 2 });
    const error = await client.getTransaction({ transactionNumber: 'T1' }).catch((e: unknown) => e);
    expect(seen).toHaveLength(3);
    expect(error).toMatchObject({ code: 'database_unavailable', status: 503, retryAfterS: 0 });
  });

  it('waits no longer than maxRetryDelayS, whatever Retry-After says', async () => {
    const { seen, fetch } = scripted(problem('database_unavailable', 503, { 'retry-after': '3600' }), json(200, { now: 'x' }));
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch, maxRetryDelayS: 0 });
    await expect(client.getSandboxClock()).resolves.toEqual({ now: 'x' });
    expect(seen).toHaveLength(2);
  });

  it('tries a redelivery again under its Idempotency-Key, as every POST; does not try again any other refusal', async () => {
    const first = scripted(
      problem('database_unavailable', 503, { 'retry-after': '0' }),
      json(202, { deliveryId: 'd1', state: 'pending', nextAttemptAt: null }),
    );
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch: first.fetch });
    await expect(client.redeliverCallback({ deliveryId: 'd1' })).resolves.toMatchObject({ state: 'pending' });
    expect(first.seen).toHaveLength(2);
    expect(first.seen[1]!.headers['idempotency-key']).toBe(first.seen[0]!.headers['idempotency-key']);
    const second = scripted(problem('rate_limited', 429, { 'retry-after': '0' }));
    const other = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch: second.fetch });
    await expect(other.getTransaction({ transactionNumber: 'T1' })).rejects.toMatchObject({ code: 'rate_limited', retryAfterS: 0 });
    expect(second.seen).toHaveLength(1);
  });

  it('rejects with an SvcApiError carrying the problem details', async () => {
    const invalid = json(400, {
      type: '/docs/errors#validation_failed',
      title: 'The request is not valid',
      status: 400,
      detail: 'amount: must be greater than 0',
      code: 'validation_failed',
      errors: [{ path: 'amount', message: 'must be greater than 0' }],
      requestId: 'req-9',
    });
    const { fetch } = scripted(invalid);
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch });
    const error = await client.pay({ token: 't', amount: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcApiError);
    expect(SvcApiError.is(error, 'validation_failed')).toBe(true);
    expect(SvcApiError.is(error, 'not_found')).toBe(false);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      detail: 'amount: must be greater than 0',
      errors: [{ path: 'amount', message: 'must be greater than 0' }],
      requestId: 'req-9',
      message: 'validation_failed: amount: must be greater than 0',
    });
  });

  it("copes with an answer that is not the service's problem+json", async () => {
    const { fetch } = scripted(() => new Response('<html>bad gateway</html>', { status: 502, headers: { 'x-request-id': 'proxy-1' } }));
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch });
    await expect(client.getTransaction({ transactionNumber: 'T1' })).rejects.toMatchObject({
      status: 502,
      code: 'http_error',
      detail: '<html>bad gateway</html>',
      requestId: 'proxy-1',
    });
  });

  it('refuses a call with a path parameter missing before sending anything', async () => {
    const { seen, fetch } = scripted();
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch });
    await expect(client.getTransaction({} as { transactionNumber: string })).rejects.toThrow('the path parameter transactionNumber is missing');
    expect(seen).toHaveLength(0);
  });
});
