import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../env';
import { SandboxProcessor } from '../../processor/sandbox-processor';
import { bearer, startTestApp, type TestApp } from '../../test/app';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { provisionTestMerchant } from '../../test/fixtures';
import { UNTHROTTLED } from '../../test/harness';
import { forgetChangedProcessorAccounts, MerchantProcessors, ProcessorAccountCache } from '.';

/**
 * Two instances of the service on one database, each keeping merchants' processor accounts in memory for the longest
 * time the configuration allows (5 minutes), each hearing the trigger's notices on a LISTEN connection of its own, as
 * main.ts wires them: an account connected, replaced or removed through one is used by the other long before that.
 */
const env = { ...UNTHROTTLED, PROCESSOR_SECRETS_KEY: randomBytes(32).toString('base64'), PROCESSOR_ACCOUNT_CACHE_S: '300' };
const sandbox = new SandboxProcessor();
let database: TestDatabase;
const listeners: postgres.Sql[] = [];
const unlistens: { unlisten(): Promise<unknown> }[] = [];
let one: { app: TestApp; processors: MerchantProcessors };
let other: { app: TestApp; processors: MerchantProcessors };

async function instance(): Promise<{ app: TestApp; processors: MerchantProcessors }> {
  const appEnv = loadEnv({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://localhost:8080', ...env });
  const accounts = new ProcessorAccountCache(appEnv.PROCESSOR_ACCOUNT_CACHE_S * 1000);
  const listener = postgres(database.url, { max: 1, onnotice: () => undefined });
  listeners.push(listener);
  unlistens.push(await forgetChangedProcessorAccounts(listener, accounts));
  const processors = new MerchantProcessors({ db: database.db, env: appEnv, defaultProcessor: sandbox, accounts });
  return { app: await startTestApp(database, { env, processor: sandbox, processors }), processors };
}

beforeAll(async () => {
  database = await createTestDatabase();
  one = await instance();
  other = await instance();
});
afterAll(async () => {
  for (const u of unlistens) await u.unlisten();
  await one?.app.close();
  await other?.app.close();
  for (const listener of listeners) await listener.end();
  await database?.drop();
});

/** Asks `check` every 20 ms until it holds or `withinMs` has passed; answers whether it held. */
async function holdsWithin(withinMs: number, check: () => Promise<boolean>): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    if (await check()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const HMAC_KEY = '0F1E2D3C4B5A69788796A5B4C3D2E1F00F1E2D3C4B5A69788796A5B4C3D2E1F0';

describe("a merchant's processor account changed on one instance", () => {
  it('is used by the other within a second, though it kept the old answer in memory: connected, replaced, removed', async () => {
    const merchant = await provisionTestMerchant(database.db);
    const kindOn = async (at: { processors: MerchantProcessors }) => (await at.processors.forMerchant(merchant.merchantId)).kind;
    const connect = (body: unknown) =>
      one.app.request('/merchant/processor', { method: 'PUT', headers: bearer(merchant.apiKey), body }).then((res) => res.status);
    // Both keep "no account of its own" from now on.
    expect(await kindOn(one)).toBe('sandbox');
    expect(await kindOn(other)).toBe('sandbox');

    expect(await connect({ kind: 'stripe', secretKey: 'sk_test_instancesShop1234', webhookSecret: 'whsec_instances' })).toBe(200);
    expect(await kindOn(one)).toBe('stripe');
    expect(await holdsWithin(1000, async () => (await kindOn(other)) === 'stripe')).toBe(true);

    expect(await connect({ kind: 'adyen', apiKey: 'AQE_instances_key', merchantAccount: 'InstancesECOM', hmacKey: HMAC_KEY })).toBe(200);
    expect(await kindOn(one)).toBe('adyen');
    expect(await holdsWithin(1000, async () => (await kindOn(other)) === 'adyen')).toBe(true);

    // No endpoint removes an account: the operator does it by hand, in SQL, which the trigger announces too.
    await database.sql`delete from processor_accounts where merchant_id = ${merchant.merchantId}`;
    expect(await holdsWithin(1000, async () => (await kindOn(one)) === 'sandbox')).toBe(true);
    expect(await holdsWithin(1000, async () => (await kindOn(other)) === 'sandbox')).toBe(true);
  });
});
