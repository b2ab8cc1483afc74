import fc from 'fast-check';
import type { ProvisionedMerchant } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/app';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { provisionTestMerchant } from '../test/fixtures';
import { authorizedHold, merchantClient } from '../test/merchant-client';

/** Whatever a client sends, the answer is never a 500: every input is either accepted or refused with a code. */
let database: TestDatabase;
let app: TestApp;
let merchant: ProvisionedMerchant;
let token: string;
let transactionNumber: string;
let linkId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database, { env: { RATE_LIMIT_PER_S: '100000', RATE_LIMIT_BURST: '100000' } });
  merchant = await provisionTestMerchant(database.db);
  const client = merchantClient(app, merchant);
  const hold = await authorizedHold(app, client, 100_000);
  token = hold.token;
  transactionNumber = hold.transactionNumber;
  const pending = await client.init({ amount: 5, currency: 'USD' });
  linkId = pending.body.transactionPage.qrURL.split('/pay/')[1]!;
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

const targets = () => [
  { path: '/transactions/init', valid: { amount: 10, currency: 'USD', products: [{ name: 'x', quantity: 1, amount: 10 }], posData: { a: 1 } } },
  { path: '/transactions/pay', valid: { token, amount: 1 } },
  { path: '/transactions/authorize', valid: { token, amount: 1 } },
  { path: '/transactions/void', valid: { transactionNumber: 'NOPE' } },
  { path: `/transactions/${transactionNumber}/closeAuth`, valid: {} },
  { path: `/pay/${linkId}`, valid: { method: 'card', card: { number: '4000000000000002', expMonth: 1, expYear: 2099, cvc: '123' } } },
  { path: '/sandbox/clock/advance', valid: { seconds: 1 } },
];

/** A valid body with one field replaced, removed or added. */
const mutated = (valid: Record<string, unknown>) =>
  fc.oneof(
    fc.record({ key: fc.constantFrom(...Object.keys(valid), 'extra'), value: fc.jsonValue() }).map(({ key, value }) => ({ ...valid, [key]: value })),
    fc.constantFrom('', ...Object.keys(valid)).map((key) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key))),
    fc.jsonValue(),
    fc.string().map((s) => ({ ...valid, pos: `a${s}\u0000` })),
    fc.string().map((s) => ({ ...valid, pos: `a${s}\ud800`, posData: { note: `\udc00${s}` } })),
  );

describe('no input produces a 500', () => {
  it('random and mutated bodies on every mutating endpoint', async () => {
    const statuses = new Set<number>();
    for (const target of targets()) {
      await fc.assert(
        fc.asyncProperty(mutated(target.valid), async (body) => {
          const res = await app.request(target.path, {
            headers: { authorization: `Bearer ${merchant.apiKey}`, 'content-type': 'application/json' },
            rawBody: JSON.stringify(body),
            method: 'POST',
          });
          const text = await res.text();
          expect(res.status, `${target.path} ${JSON.stringify(body)} → ${text}`).toBeLessThan(500);
          expect(res.headers.get('content-type')).toMatch(/json/);
          statuses.add(res.status);
        }),
        { numRuns: 40 },
      );
    }
    // The inputs reach the rules, not only the body parser: some are accepted, some refused by validation.
    expect(statuses.has(200)).toBe(true);
    expect(statuses.has(400)).toBe(true);
    expect(statuses.has(415)).toBe(false);
  });

  it('random path parameters', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), async (segment) => {
        for (const path of [`/transactions/${encodeURIComponent(segment)}`, `/pay/${encodeURIComponent(segment)}/state`]) {
          const res = await app.request(path, { headers: { authorization: `Bearer ${merchant.apiKey}` } });
          expect(res.status, path).toBeLessThan(500);
        }
      }),
      { numRuns: 100 },
    );
  });
});
