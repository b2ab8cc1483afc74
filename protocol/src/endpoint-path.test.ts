import { describe, expect, it } from 'vitest';
import { endpointRequest } from './endpoint-path';
import { createMerchantClient } from './merchant-client';

describe('endpointRequest', () => {
  it('fills the path from the endpoint table, encoded', () => {
    expect(endpointRequest('closeAuthorization', { transactionNumber: 'T1/2' })).toEqual({ method: 'POST', path: '/transactions/T1%2F2/closeAuth' });
    expect(endpointRequest('getTransaction', { transactionNumber: 'T1' })).toEqual({ method: 'GET', path: '/transactions/T1' });
  });

  it('refuses an operation the table does not list, or a missing parameter', () => {
    expect(() => endpointRequest('refundEverything')).toThrow(/no endpoint refundEverything/);
    expect(() => endpointRequest('getTransaction')).toThrow(/needs the path parameter transactionNumber/);
  });

  it('every merchant client method calls a path of the table', async () => {
    const seen: string[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      seen.push(`${init.method} ${new URL(url).pathname}`);
      return new Response('{}', { status: 200 });
    }) as typeof globalThis.fetch;
    const client = createMerchantClient({ baseUrl: 'http://svc.test', apiKey: 'sk_x', fetch });
    await client.get('T1');
    await client.commit('T1', { amount: 1, currency: 'USD' });
    await client.redeliver('d1');
    await client.sandboxMessages();
    expect(seen).toEqual(['GET /transactions/T1', 'POST /transactions/T1/commit', 'POST /callbacks/d1/redeliver', 'GET /sandbox/messages']);
  });
});
