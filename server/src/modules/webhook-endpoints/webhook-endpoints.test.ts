import type { AuditLogPage, CreatedWebhookEndpoint, EventPage, ServiceEvent, WebhookEndpoint } from '@svc/protocol';
import { MAX_WEBHOOK_ENDPOINTS, Status } from '@svc/protocol';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { loadEnv } from '../../env';
import { createLogger } from '../../logger';
import { startReceiver, type Received } from '../../test/callback-receiver';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { codeOf, merchantClient, paidSale } from '../../test/merchant-client';
import { provisionTestMerchant } from '../../test/fixtures';
import { lockWaiters } from '../../test/row-lock';
import { createCallbackDispatcher } from '../callbacks/dispatcher';

const t = useTestApp({ env: { ...UNTHROTTLED, CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' }, merchantName: 'Two Systems Shop' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
  // Each test starts with an empty outbox and no endpoints.
  await t.database.sql`update callback_deliveries set state = 'failed', next_attempt_at = null where state = 'pending'`;
  await t.database.sql`update webhook_endpoints set deleted_at = now() where deleted_at is null`;
});

const dispatcher = () =>
  createCallbackDispatcher({
    db: t.database.db,
    clock: t.app.clock,
    logger: createLogger({ level: 'silent' }),
    env: loadEnv({ CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', CALLBACK_TIMEOUT_MS: '1000' }),
  });

async function receiver() {
  const r = await startReceiver();
  cleanups.push(r.close);
  return r;
}

async function addEndpoint(url: string, enabledEvents: string[], description?: string) {
  const res = await t.client.call<CreatedWebhookEndpoint>('POST', '/webhook-endpoints', { url, enabledEvents, ...(description ? { description } : {}) });
  expect(res.status).toBe(200);
  return res.body;
}

/** Every event a receiver got, each verified with `secret` the Standard Webhooks way (a forged one throws). */
function verified(received: Received[], secret: string): ServiceEvent[] {
  const webhook = new Webhook(secret);
  return received.map((hit) => {
    const headers = {
      'webhook-id': String(hit.headers['webhook-id']),
      'webhook-timestamp': String(hit.headers['webhook-timestamp']),
      'webhook-signature': String(hit.headers['webhook-signature']),
    };
    const event = webhook.verify(hit.body, headers) as ServiceEvent;
    expect(headers['webhook-id']).toBe(event.eventId);
    return event;
  });
}

/** Sends everything due, until nothing is. */
async function drain() {
  const d = dispatcher();
  while ((await d.runOnce()) > 0);
}

describe('webhook endpoints', () => {
  it('answer the endpoint and its own whsec_ secret once, list, read, change and remove it', async () => {
    const created = await addEndpoint('https://shop.example/hooks', ['transaction.updated', '*', '*'], 'the shop');
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.endpoint).toMatchObject({
      url: 'https://shop.example/hooks',
      enabledEvents: ['transaction.updated', '*'],
      description: 'the shop',
      disabled: false,
    });
    const { endpointId } = created.endpoint;

    const listed = await t.client.call<{ data: WebhookEndpoint[] }>('GET', '/webhook-endpoints');
    expect(listed.body.data).toEqual([created.endpoint]);
    expect(JSON.stringify(listed.body)).not.toContain(created.secret.slice(6));

    const changed = await t.client.call<WebhookEndpoint>('POST', `/webhook-endpoints/${endpointId}`, { disabled: true, enabledEvents: ['refund.updated'] });
    expect(changed.body).toMatchObject({
      endpointId,
      disabled: true,
      enabledEvents: ['refund.updated'],
      url: 'https://shop.example/hooks',
      description: 'the shop',
    });
    expect((await t.client.call<WebhookEndpoint>('GET', `/webhook-endpoints/${endpointId}`)).body).toEqual(changed.body);

    const removed = await t.client.call('DELETE', `/webhook-endpoints/${endpointId}`);
    expect(removed).toMatchObject({ status: 200, body: { endpointId, deleted: true } });
    expect((await t.client.call('GET', `/webhook-endpoints/${endpointId}`)).status).toBe(404);
    expect((await t.client.call<{ data: unknown[] }>('GET', '/webhook-endpoints')).body.data).toEqual([]);

    // Each change is in the audit log, by the key that made it, never with the secret.
    const audit = await t.client.call<AuditLogPage>('GET', '/merchant/audit-log?limit=3');
    expect(audit.body.data.map((e) => [e.action, e.details.endpointId, e.actor.kind])).toEqual([
      ['webhook_endpoint.deleted', endpointId, 'merchant_key'],
      ['webhook_endpoint.updated', endpointId, 'merchant_key'],
      ['webhook_endpoint.created', endpointId, 'merchant_key'],
    ]);
    expect(audit.body.data[2]!.details).toMatchObject({ callbackOrigin: 'https://shop.example', enabledEvents: ['transaction.updated', '*'] });
    expect(JSON.stringify(audit.body)).not.toContain(created.secret.slice(6));
  });

  it("refuse an unknown event type (400 validation_failed); another merchant's endpoint is a 404", async () => {
    const unknown = await t.client.call('POST', '/webhook-endpoints', { url: 'https://shop.example/hooks', enabledEvents: ['charge.succeeded'] });
    expect(unknown.status).toBe(400);
    expect(codeOf(unknown.body)).toBe('validation_failed');
    expect(JSON.stringify(unknown.body)).toContain('enabledEvents');

    const { endpoint } = await addEndpoint('https://shop.example/hooks', ['*']);
    const other = merchantClient(t.app, await provisionTestMerchant(t.database.db, 'Other Shop'));
    for (const [method, path, body] of [
      ['GET', `/webhook-endpoints/${endpoint.endpointId}`, undefined],
      ['POST', `/webhook-endpoints/${endpoint.endpointId}`, { disabled: true }],
      ['DELETE', `/webhook-endpoints/${endpoint.endpointId}`, undefined],
    ] as const) {
      const res = await other.call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(codeOf(res.body)).toBe('not_found');
    }
    expect((await other.call<{ data: unknown[] }>('GET', '/webhook-endpoints')).body.data).toEqual([]);
    expect((await t.client.call<WebhookEndpoint>('GET', `/webhook-endpoints/${endpoint.endpointId}`)).body.disabled).toBe(false);
  });

  it('refuse a URL that carries credentials, as a callbackURL is', async () => {
    const res = await t.client.call('POST', '/webhook-endpoints', { url: 'http://user:pw@shop.example/hooks', enabledEvents: ['*'] });
    expect(res.status).toBe(400);
    expect(codeOf(res.body)).toBe('callback_url_not_allowed');
  });
});

describe('the most endpoints a merchant may have', () => {
  it('holds under concurrent creates: at MAX - 1, exactly one of them is added and the others are refused', async () => {
    const other = await provisionTestMerchant(t.database.db, 'Many Endpoints Shop');
    const client = merchantClient(t.app, other);
    const create = (n: number) => client.call('POST', '/webhook-endpoints', { url: `http://127.0.0.1:9/hooks/${n}`, enabledEvents: ['*'] });
    for (let n = 1; n < MAX_WEBHOOK_ENDPOINTS; n++) expect((await create(n)).status).toBe(200);
    // The audit log is held locked while the creates run, so each one's transaction stays open until all of them have
    // done what they do before their audit entry: without a guard they would each count MAX - 1 and add one.
    const racing = 4;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockedNow = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.database.sql.begin(async (sql) => {
      await sql`lock table audit_log in exclusive mode`;
      locked();
      await released;
    });
    await lockedNow;
    const answers = Array.from({ length: racing }, (_, i) => create(MAX_WEBHOOK_ENDPOINTS + i));
    await lockWaiters(t.database.sql, racing);
    release();
    await holder;
    const settled = await Promise.all(answers);
    expect(settled.filter((res) => res.status === 200)).toHaveLength(1);
    const refused = settled.filter((res) => res.status !== 200);
    expect(refused.map((res) => [res.status, codeOf(res.body)])).toEqual(Array.from({ length: racing - 1 }, () => [400, 'validation_failed']));
    const listed = await client.call<{ data: unknown[] }>('GET', '/webhook-endpoints');
    expect(listed.body.data).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
  });
});

describe("a merchant's events", () => {
  it('go to each endpoint that enabled their type, signed with its own secret; a disabled one gets nothing', async () => {
    const [warehouse, shop, off] = [await receiver(), await receiver(), await receiver()];
    const refunds = await addEndpoint(`${warehouse.url}/refunds`, ['transaction.refunded']);
    const everything = await addEndpoint(`${shop.url}/all`, ['*']);
    const disabled = await addEndpoint(`${off.url}/off`, ['*']);
    await t.client.call('POST', `/webhook-endpoints/${disabled.endpoint.endpointId}`, { disabled: true });

    const { transactionNumber } = await paidSale(t.app, t.client, 1_000);
    await drain();
    // The sale: the refund endpoint gets nothing of it.
    expect(warehouse.received).toHaveLength(0);
    const saleEvents = verified(shop.received, everything.secret);
    expect(saleEvents.map((e) => e.type).sort()).toEqual(['transaction.approved', 'transaction.updated']);
    expect(saleEvents.every((e) => e.data.transaction.TransactionNumber === transactionNumber)).toBe(true);
    expect(saleEvents.find((e) => e.type === 'transaction.approved')!.data.transaction.status).toBe(Status.Approved);

    const refunded = await t.client.refund(transactionNumber, { amount: 400 });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body.refund.status).toBe('succeeded');
    await drain();
    const [refundEvent, ...more] = verified(warehouse.received, refunds.secret);
    expect(more).toEqual([]);
    expect(refundEvent).toMatchObject({
      type: 'transaction.refunded',
      data: { refund: { refundId: refunded.body.refund.refundId, status: 'succeeded', amountCents: 400 } },
    });
    expect(refundEvent!.data.transaction.status).toBe(Status.PartiallyRefunded);
    // Each endpoint verifies only with its own secret.
    expect(() => verified(warehouse.received, everything.secret)).toThrow();
    expect(() => verified(shop.received, refunds.secret)).toThrow();
    const all = verified(shop.received, everything.secret).map((e) => e.type);
    expect(all.filter((type) => type === 'refund.updated')).toHaveLength(2); // asked for, then answered
    expect(all.filter((type) => type === 'transaction.refunded')).toHaveLength(1);
    expect(off.received).toHaveLength(0);
  });

  it('queued for an endpoint that is disabled before they are sent are not sent', async () => {
    const shop = await receiver();
    const { endpoint } = await addEndpoint(`${shop.url}/all`, ['*']);
    await paidSale(t.app, t.client, 700);
    await t.client.call('POST', `/webhook-endpoints/${endpoint.endpointId}`, { disabled: true });
    await drain();
    expect(shop.received).toHaveLength(0);
    const states = await t.database.sql<{ state: string; error: string | null }[]>`
      select d.state, a.error from callback_deliveries d join callback_attempts a on a.delivery_id = d.id where d.endpoint_id = ${endpoint.endpointId}`;
    expect(states.length).toBeGreaterThan(0);
    expect(states.every((row) => row.state === 'failed' && /disabled/.test(row.error ?? ''))).toBe(true);
  });

  it('are listed newest first, paged with a cursor and filtered by type, and an event can be sent again', async () => {
    const shop = await receiver();
    const { endpoint, secret } = await addEndpoint(`${shop.url}/all`, ['transaction.approved']);
    const sales: string[] = [];
    for (let i = 0; i < 3; i++) sales.push((await paidSale(t.app, t.client, 100 + i)).transactionNumber);

    const approved: ServiceEvent[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: EventPage } = await t.client.call<EventPage>(
        'GET',
        `/events?type=transaction.approved&limit=2${cursor ? `&startingAfter=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      approved.push(...res.body.data);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      cursor = res.body.nextCursor;
      expect(cursor !== null).toBe(res.body.hasMore);
    } while (cursor);
    const ours = approved.filter((e) => sales.includes(e.data.transaction.TransactionNumber));
    expect(ours.map((e) => e.data.transaction.TransactionNumber)).toEqual([...sales].reverse());
    expect(new Set(approved.map((e) => e.eventId)).size).toBe(approved.length);
    expect(approved.every((e) => e.type === 'transaction.approved')).toBe(true);

    const bad = await t.client.call('GET', '/events?type=charge.succeeded');
    expect(bad.status).toBe(400);
    expect(codeOf(bad.body)).toBe('validation_failed');

    await drain();
    expect(shop.received).toHaveLength(3);
    const first = verified(shop.received, secret)[0]!;
    expect(first).toEqual(approved.find((e) => e.eventId === first.eventId));
    const again = await t.client.call<{ deliveryId: string; status: string }>('POST', `/events/${first.eventId}/redeliver`, {
      endpointId: endpoint.endpointId,
    });
    expect(again).toMatchObject({ status: 202, body: { status: 'pending' } });
    await drain();
    expect(shop.received).toHaveLength(4);
    const resent = verified(shop.received.slice(3), secret)[0]!;
    expect(resent).toEqual(first);

    const other = merchantClient(t.app, await provisionTestMerchant(t.database.db, 'Nosy Shop'));
    const nosy = await other.call('POST', `/events/${first.eventId}/redeliver`, { endpointId: endpoint.endpointId });
    expect(nosy.status).toBe(404);
    expect((await other.call<EventPage>('GET', '/events')).body.data).toEqual([]);
  });

  // Last in the file: it moves the test clock 31 days on.
  it('reach back 30 days: an older event is no longer listed', async () => {
    const { transactionNumber } = await paidSale(t.app, t.client, 300);
    const listed = async () => (await t.client.call<EventPage>('GET', '/events?limit=100')).body.data.map((e) => e.data.transaction.TransactionNumber);
    expect(await listed()).toContain(transactionNumber);
    expect((await t.client.advanceClock(31 * 24 * 60 * 60)).status).toBe(200);
    expect(await listed()).not.toContain(transactionNumber);
  });
});
