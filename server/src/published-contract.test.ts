import { endpointRequest, type CallbackLog, type CredentialList, type Transaction } from '@svc/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer } from './test/app';
import { UNTHROTTLED, useTestApp } from './test/harness';
import { codeOf } from './test/merchant-client';
import { PublishedDocument, type ExchangeRequest } from './test/published-document';

// Real requests and answers of the app, each checked against the OpenAPI document the app publishes, as an outside
// reviewer checks them with a validating proxy: what the service answers, the document lists; what the service
// accepts, the document accepts; what it refuses as invalid, the document refuses.
const t = useTestApp({ env: { ...UNTHROTTLED, CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' } });
let published: PublishedDocument;
beforeAll(async () => {
  published = await PublishedDocument.of(t.app);
});

const key = () => bearer(t.merchant.apiKey);
const call = (operationId: string, params: Record<string, string>, init: Omit<ExchangeRequest, 'method' | 'path'> = {}): ExchangeRequest => ({
  ...endpointRequest(operationId, params),
  ...init,
});
const newSale = async (extra: Record<string, unknown> = {}) => {
  const created = await t.client.init({ amount: 1250, isCent: true, currency: 'USD', ...extra });
  expect(created.status).toBe(200);
  return created.body;
};
const clientIdCredential = async () => {
  const listed = await published.exchange(call('listCredentials', {}, { headers: key() }));
  return (listed.body as CredentialList).credentials.find((c) => c.kind === 'client' && c.revokedAt === null)!.credentialId;
};

describe('the answers the document lists', () => {
  it('a sticker with a payment waiting answers 303 to its page, a status the document lists', async () => {
    await newSale({ deviceId: t.merchant.deviceId });
    const opened = await published.exchange({ method: 'GET', path: new URL(t.merchant.stickerUrl).pathname });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toMatch(/\/pay\//);
    expect(opened.answerFindings).toEqual([]);
  });

  it.each([
    ['a payment link', '/pay/AAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a sticker', '/s/0000000000000000abcdefab'],
  ])('an unknown %s answers its 404 page, an HTML answer the document lists', async (_what, path) => {
    const answer = await published.exchange({ method: 'GET', path });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.answerFindings).toEqual([]);
  });

  it.each([
    ['unknown', 'AAAAAAAAAAAAAAAAAAAAAAAA'],
    ['malformed', 'x'],
  ])('the QR code of an %s link is a 404 problem, not a page', async (_what, linkId) => {
    const answer = await published.exchange(call('getPaymentQrCode', { linkId }));
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(codeOf(answer.body)).toBe('not_found');
    expect(answer.answerFindings).toEqual([]);
  });
});

describe('the credentials the document accepts', () => {
  it('an API key in the body instead of the header, as the service takes it', async () => {
    const sale = await newSale();
    const cancelled = await published.exchange(
      call('cancelTransaction', { transactionNumber: sale.TransactionNumber }, { body: { apiKey: t.merchant.apiKey } }),
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.requestFindings).toEqual([]);
    expect(cancelled.answerFindings).toEqual([]);
  });

  it("a device ID in init's body, as the service takes it", async () => {
    const created = await published.exchange(
      call('initTransaction', {}, { body: { amount: 300, isCent: true, currency: 'USD', deviceId: t.merchant.deviceId } }),
    );
    expect(created.status).toBe(200);
    expect(created.requestFindings).toEqual([]);
    expect(created.answerFindings).toEqual([]);
  });

  it('the merchant settings with the API key in the body, as the text allows', async () => {
    const changed = await published.exchange(call('updateMerchantSettings', {}, { body: { apiKey: t.merchant.apiKey, callbackMethod: 'get' } }));
    expect(changed.status).toBe(200);
    expect(changed.requestFindings).toEqual([]);
    expect(changed.answerFindings).toEqual([]);
  });

  it('a GET with no credential is refused by both (the header is the only place a GET carries one)', async () => {
    const sale = await newSale();
    const refused = await published.exchange(call('getTransaction', { transactionNumber: sale.TransactionNumber }));
    expect(refused.status).toBe(401);
    expect(refused.requestFindings).not.toEqual([]);
    expect(refused.answerFindings).toEqual([]);
  });
});

describe('the request bodies the document accepts are the ones the service accepts', () => {
  it.each<[string, string, Record<string, string>, Record<string, unknown>]>([
    ['a currency the service does not take', 'initTransaction', {}, { amount: 100, isCent: true, currency: 'XYZ' }],
    ['a callbackURL of another scheme', 'initTransaction', {}, { amount: 100, isCent: true, currency: 'USD', callbackURL: 'ftp://shop.example.com/cb' }],
    ['a pay naming neither token nor transactionNumber', 'pay', {}, { amount: 100 }],
    ['a pay naming both', 'pay', {}, { token: 'tok_x', transactionNumber: 'T1', amount: 100 }],
    ['a void naming neither', 'void', {}, {}],
    ['a branch key without its branchId', 'createCredential', {}, { kind: 'branch_key' }],
    ['a merchant key with a branchId', 'createCredential', {}, { kind: 'merchant_key', branchId: '6f1c1f5e-8d2a-4b7e-9a1c-2f3d4e5f6a7b' }],
    ['allowed origins on a branch key', 'createCredential', {}, { kind: 'branch_key', branchId: '6f1c1f5e-8d2a-4b7e-9a1c-2f3d4e5f6a7b', allowedOrigins: [] }],
    ['an allowed origin with a path', 'createCredential', {}, { kind: 'client', allowedOrigins: ['https://shop.example.com/checkout'] }],
    ['a default callbackURL of another scheme', 'updateMerchantSettings', {}, { callbackURL: 'javascript:alert(1)' }],
  ])('%s: refused by both', async (_what, operationId, params, body) => {
    const answer = await published.exchange(call(operationId, params, { headers: key(), body }));
    expect(answer.status).toBe(400);
    expect(codeOf(answer.body)).toBe('validation_failed');
    expect(answer.requestFindings).not.toEqual([]);
    expect(answer.answerFindings).toEqual([]);
  });

  it('an origin with a path added to a client ID: refused by both', async () => {
    const credentialId = await clientIdCredential();
    const answer = await published.exchange(
      call('addAllowedOrigin', { credentialId }, { headers: key(), body: { origin: 'https://shop.example.com/checkout' } }),
    );
    expect(answer.status).toBe(400);
    expect(answer.requestFindings).not.toEqual([]);
  });

  it('what the service accepts in any letter case, the document accepts too', async () => {
    const created = await published.exchange(
      call('initTransaction', {}, { headers: key(), body: { amount: 100, isCent: true, currency: 'usd', methodType: 'AUTHORIZE', callbackMethod: 'post' } }),
    );
    expect(created.status).toBe(200);
    expect(created.requestFindings).toEqual([]);
    const client = await published.exchange(
      call('createCredential', {}, { headers: key(), body: { kind: 'client', allowedOrigins: ['https://shop.example.com'] } }),
    );
    expect(client.status).toBe(201);
    expect(client.requestFindings).toEqual([]);
    const origin = await published.exchange(
      call('addAllowedOrigin', { credentialId: await clientIdCredential() }, { headers: key(), body: { origin: 'http://localhost:3001' } }),
    );
    expect(origin.status).toBe(200);
    expect(origin.requestFindings).toEqual([]);
  });
});

describe('a redelivery', () => {
  it('takes an Idempotency-Key, as every mutating POST does: a retry replays the first answer', async () => {
    const sale = await newSale({ callbackURL: 'http://127.0.0.1:9/callbacks' });
    expect((await t.client.cancel(sale.TransactionNumber)).status).toBe(200); // a callback to deliver
    const log = await published.exchange(call('listCallbacks', { transactionNumber: sale.TransactionNumber }, { headers: key() }));
    const { deliveryId } = (log.body as CallbackLog).deliveries[0]!;
    const redeliver = () =>
      published.exchange(call('redeliverCallback', { deliveryId }, { headers: { ...key(), 'idempotency-key': `redeliver-${deliveryId}` } }));
    const first = await redeliver();
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await redeliver();
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    for (const answer of [first, again]) expect([...answer.requestFindings, ...answer.answerFindings]).toEqual([]);
  });
});

describe('a tour of the API', () => {
  it('answers only what the document lists, to requests it accepts', async () => {
    const sale: Transaction = await newSale();
    const number = { transactionNumber: sale.TransactionNumber };
    const linkId = sale.transactionPage.qrURL.split('/pay/')[1]!;
    const requests: ExchangeRequest[] = [
      call('getTransaction', number, { headers: key() }),
      { ...call('listTransactions', {}, { headers: key() }), path: '/transactions?limit=2&status=1' },
      call('getPaymentLinkState', { linkId }),
      call('getPaymentPage', { linkId }),
      call('getPaymentQrCode', { linkId }),
      call('payPaymentLink', { linkId }, { body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' } } }),
      call('refundTransaction', number, { headers: key(), body: { amount: 100 } }),
      call('listCallbacks', number, { headers: key() }),
      call('getMerchantSettings', {}, { headers: key() }),
      call('getPaymentMethods', {}, { headers: key() }),
      call('listAuditLog', {}, { headers: key() }),
      call('getSandboxClock', {}, { headers: key() }),
      call('health', {}),
      call('liveness', {}),
    ];
    for (const request of requests) {
      const answer = await published.exchange(request);
      expect({ request: `${request.method} ${request.path}`, status: answer.status, findings: [...answer.requestFindings, ...answer.answerFindings] }).toEqual({
        request: `${request.method} ${request.path}`,
        status: answer.status,
        findings: [],
      });
      expect(answer.status, `${request.method} ${request.path}`).toBeLessThan(300);
    }
  });
});
