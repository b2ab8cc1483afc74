import { describe, expect, it } from 'vitest';
import { createMerchantClient, ServiceApiError } from './merchant-client';

describe('createMerchantClient', () => {
  it('sends the key, the body and the Idempotency-Key, and parses the answer', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const client = createMerchantClient({
      baseUrl: 'http://svc.test/',
      apiKey: 'sk_x',
      fetch: (async (url: string, init: RequestInit) => {
        seen.push({ url, init });
        return new Response(JSON.stringify({ TransactionNumber: 'T1' }), { status: 200 });
      }) as typeof fetch,
    });
    const tx = await client.init({ amount: 1, currency: 'USD' }, { idempotencyKey: 'k1' });
    expect(tx.TransactionNumber).toBe('T1');
    expect(seen[0]!.url).toBe('http://svc.test/transactions/init');
    expect(seen[0]!.init.headers).toMatchObject({ authorization: 'Bearer sk_x', 'idempotency-key': 'k1', 'content-type': 'application/json' });
    expect(JSON.parse(seen[0]!.init.body as string)).toEqual({ amount: 1, currency: 'USD' });
  });

  it('lists transactions with the query written from typed parameters', async () => {
    const urls: string[] = [];
    const client = createMerchantClient({
      baseUrl: 'http://svc.test',
      apiKey: 'sk_x',
      fetch: (async (url: string) => {
        urls.push(url);
        return new Response(JSON.stringify({ data: [], hasMore: false, nextCursor: null }), { status: 200 });
      }) as typeof fetch,
    });
    expect(await client.listTransactions()).toEqual({ data: [], hasMore: false, nextCursor: null });
    await client.listTransactions({
      limit: 50,
      startingAfter: 'abc',
      status: [5, 6],
      createdFrom: new Date('2026-01-01T00:00:00Z'),
      posData: { orderId: 'A 17' },
      q: ' 4242 ',
    });
    expect(urls).toEqual([
      'http://svc.test/transactions',
      'http://svc.test/transactions?limit=50&startingAfter=abc&status=5%2C6&createdFrom=2026-01-01T00%3A00%3A00.000Z&posData%5BorderId%5D=A+17&q=4242',
    ]);
  });

  it('rejects with the problem details and their stable code', async () => {
    const problem = {
      type: '/docs/errors#amount_exceeds_available',
      title: 't',
      status: 409,
      detail: 'Only 5 cents left.',
      code: 'amount_exceeds_available',
      requestId: 'r',
    };
    const client = createMerchantClient({
      baseUrl: 'http://svc.test',
      apiKey: 'sk_x',
      fetch: (async () => new Response(JSON.stringify(problem), { status: 409 })) as unknown as typeof fetch,
    });
    const error = await client.pay({ token: 't', amount: 9 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceApiError);
    expect(error).toMatchObject({ status: 409, code: 'amount_exceeds_available', message: 'amount_exceeds_available: Only 5 cents left.' });
  });

  it('refunds: POSTs the refund body (empty for "everything") to the transaction\'s refund path, with its Idempotency-Key', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const client = createMerchantClient({
      baseUrl: 'http://svc.test',
      apiKey: 'sk_x',
      fetch: (async (url: string, init: RequestInit) => {
        seen.push({ url, init });
        return new Response(JSON.stringify({ refund: { refundId: 'rf_1' }, transaction: {} }), { status: 200 });
      }) as typeof fetch,
    });
    const answer = await client.refund('T 1', { amount: 250, reason: 'duplicate' }, { idempotencyKey: 'r1' });
    expect(answer.refund.refundId).toBe('rf_1');
    expect(seen[0]!.url).toBe('http://svc.test/transactions/T%201/refund');
    expect(seen[0]!.init).toMatchObject({ method: 'POST', headers: { 'idempotency-key': 'r1' } });
    expect(JSON.parse(seen[0]!.init.body as string)).toEqual({ amount: 250, reason: 'duplicate' });
    await client.refund('T2');
    expect(JSON.parse(seen[1]!.init.body as string)).toEqual({});
  });

  it('copes with an answer that is not problem+json', async () => {
    const client = createMerchantClient({
      baseUrl: 'http://svc.test',
      apiKey: 'sk_x',
      fetch: (async () => new Response('<html>bad gateway</html>', { status: 502 })) as unknown as typeof fetch,
    });
    await expect(client.get('T1')).rejects.toMatchObject({ status: 502, code: 'http_error' });
  });
});
