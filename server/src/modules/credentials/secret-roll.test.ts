import { endpointRequest, verifyCallback, verifySpecHmac, type RolledWebhookSecret } from '@svc/protocol';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock';
import { loadEnv } from '../../env';
import { createLogger } from '../../logger';
import { bearer } from '../../test/app';
import { startReceiver, type Received } from '../../test/callback-receiver';
import { provisionTestMerchant } from '../../test/fixtures';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { merchantClient } from '../../test/merchant-client';
import { createCallbackDispatcher } from '../callbacks/dispatcher';

const clock = new ManualClock(new Date(Date.now()));
const t = useTestApp({ env: { ...UNTHROTTLED, CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' }, clock });
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const dispatcher = () =>
  createCallbackDispatcher({
    db: t.database.db,
    clock,
    logger: createLogger({ level: 'silent' }),
    env: loadEnv({ CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', CALLBACK_TIMEOUT_MS: '2000' }),
  });

async function roll(apiKey: string, body: object = {}) {
  const { method, path } = endpointRequest('rollWebhookSecret');
  const res = await t.app.request(path, { method, headers: bearer(apiKey), body });
  expect(res.status).toBe(200);
  return (await res.json()) as RolledWebhookSecret;
}

/** One update of a new transaction of `apiKey`'s merchant, delivered now: what reached the merchant's endpoint. */
async function oneCallback(apiKey: string): Promise<Received> {
  const client = merchantClient(t.app, { apiKey });
  const created = await client.init({ amount: 5, currency: 'USD', callbackURL: `${receiver.url}/hook` });
  expect(created.status).toBe(200);
  await client.cancel(created.body.TransactionNumber);
  const before = receiver.received.length;
  expect(await dispatcher().runOnce()).toBe(1);
  expect(receiver.received).toHaveLength(before + 1);
  return receiver.received[before]!;
}

const headerOf = (hit: Received) => (name: string) => hit.headers[name] as string | undefined;

/** Whether a Standard Webhooks library handed `secret` accepts the callback. */
function standardWebhooksAccepts(secret: string, hit: Received): boolean {
  try {
    new Webhook(secret).verify(hit.body, {
      'webhook-id': hit.headers['webhook-id'] as string,
      'webhook-timestamp': hit.headers['webhook-timestamp'] as string,
      'webhook-signature': hit.headers['webhook-signature'] as string,
    });
    return true;
  } catch {
    return false;
  }
}

describe('rolling the HMAC secret', () => {
  it('during the overlap a callback verifies with either secret, both ways; after it, only with the new one', async () => {
    const merchant = await provisionTestMerchant(t.database.db);
    const old = merchant.hmacSecret;
    const rolled = await roll(merchant.apiKey);
    expect(rolled.hmacSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rolled.hmacSecret).not.toBe(old);
    expect(rolled.previousSecretValidUntil).toBe(new Date(clock.now().getTime() + 86_400_000).toISOString());
    const fresh = rolled.hmacSecret;

    const during = await oneCallback(merchant.apiKey);
    for (const secret of [old, fresh]) {
      expect(await verifyCallback(secret, headerOf(during), during.body)).toBe(true);
      expect(standardWebhooksAccepts(secret, during)).toBe(true);
    }
    expect(await verifyCallback('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', headerOf(during), during.body)).toBe(false);
    // The spec's header stays the old secret's (a merchant verifying with it notices nothing); the new one's rides beside it.
    const randomKey = during.headers['hmac-random-key'] as string;
    expect(await verifySpecHmac(old, randomKey, during.headers['hmac-authorization'] as string, during.body)).toBe(true);
    expect(await verifySpecHmac(fresh, randomKey, during.headers['hmac-authorization-next'] as string, during.body)).toBe(true);
    expect((during.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);

    // A second before the overlap ends, still both.
    clock.advance(86_399);
    const lastMoment = await oneCallback(merchant.apiKey);
    expect(await verifyCallback(old, headerOf(lastMoment), lastMoment.body)).toBe(true);

    clock.advance(1);
    const after = await oneCallback(merchant.apiKey);
    expect(await verifyCallback(fresh, headerOf(after), after.body)).toBe(true);
    expect(standardWebhooksAccepts(fresh, after)).toBe(true);
    expect(await verifyCallback(old, headerOf(after), after.body)).toBe(false);
    expect(standardWebhooksAccepts(old, after)).toBe(false);
    expect(after.headers['hmac-authorization-next']).toBeUndefined();
    expect(await verifySpecHmac(fresh, after.headers['hmac-random-key'] as string, after.headers['hmac-authorization'] as string, after.body)).toBe(true);
  });

  it('with overlapSeconds 0 only the new secret signs, at once', async () => {
    const merchant = await provisionTestMerchant(t.database.db);
    const rolled = await roll(merchant.apiKey, { overlapSeconds: 0 });
    expect(rolled.previousSecretValidUntil).toBeNull();
    const hit = await oneCallback(merchant.apiKey);
    expect(await verifyCallback(rolled.hmacSecret, headerOf(hit), hit.body)).toBe(true);
    expect(await verifyCallback(merchant.hmacSecret, headerOf(hit), hit.body)).toBe(false);
    expect(standardWebhooksAccepts(merchant.hmacSecret, hit)).toBe(false);
  });

  it('a second roll during the overlap: the newest two secrets sign, the first one no longer', async () => {
    const merchant = await provisionTestMerchant(t.database.db);
    const first = await roll(merchant.apiKey);
    const second = await roll(merchant.apiKey, { overlapSeconds: 600 });
    const hit = await oneCallback(merchant.apiKey);
    expect(await verifyCallback(second.hmacSecret, headerOf(hit), hit.body)).toBe(true);
    expect(await verifyCallback(first.hmacSecret, headerOf(hit), hit.body)).toBe(true);
    expect(await verifyCallback(merchant.hmacSecret, headerOf(hit), hit.body)).toBe(false);
  });

  it.each([{ overlapSeconds: -1 }, { overlapSeconds: 1.5 }, { overlapSeconds: 7 * 86_400 + 1 }, { overlapSeconds: '60' }])(
    'refuses %j (400 naming overlapSeconds)',
    async (body) => {
      const { method, path } = endpointRequest('rollWebhookSecret');
      const res = await t.app.request(path, { method, headers: bearer(t.merchant.apiKey), body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { errors: { path: string }[] }).errors[0]!.path).toBe('overlapSeconds');
    },
  );
});
