import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../test/app';
import { useTestApp, UNTHROTTLED } from '../../test/harness';

/**
 * `GET /transactions` refuses what PostgreSQL cannot take (U+0000 in text, a year 0000, a day that does not exist)
 * as a 400 naming the parameter, instead of failing in the query as a 500.
 */
const t = useTestApp({ env: UNTHROTTLED });

const cursor = (createdAt: string) => Buffer.from(`${createdAt}~00000000-0000-4000-8000-000000000000`).toString('base64url');

const refusals: [string, string][] = [
  ['q=A%00B', 'q'],
  ['q=%00000', 'q'],
  ['posData[orderId]=A%00', 'posData'],
  ['posData[order%00Id]=A', 'posData'],
  ['createdFrom=0000-01-01T00:00:00Z', 'createdFrom'],
  ['createdTo=0000-06-01T00:00:00Z', 'createdTo'],
  // Year 1 east of Greenwich is still year 0 in UTC; year 9999 west of it is year 10000.
  ['createdFrom=0001-01-01T00:00:00%2B01:00', 'createdFrom'],
  ['createdTo=9999-12-31T23:00:00-02:00', 'createdTo'],
  [`startingAfter=${cursor('0000-01-01T00:00:00.000000Z')}`, 'startingAfter'],
  [`startingAfter=${cursor('2026-02-31T00:00:00.000000Z')}`, 'startingAfter'],
  [`startingAfter=${cursor('2026-01-01T25:00:00.000000Z')}`, 'startingAfter'],
];

describe('GET /transactions refuses what the database cannot store, naming the parameter', () => {
  it.each(refusals)('%s', async (query, parameter) => {
    const res = await t.app.request(`/transactions?${query}`, { headers: bearer(t.merchant.apiKey) });
    const body = (await res.json()) as { code?: string; errors?: { path: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body.code).toBe('validation_failed');
    expect(body.errors?.map((e) => e.path.split('.')[0])).toContain(parameter);
  });

  it('takes the first and the last instants it can store', async () => {
    for (const query of ['createdFrom=0001-01-01T00:00:00Z', 'createdTo=9999-12-31T23:59:59.999Z', `startingAfter=${cursor('0001-01-01T00:00:00.000000Z')}`]) {
      const res = await t.app.request(`/transactions?${query}`, { headers: bearer(t.merchant.apiKey) });
      expect(res.status, query).toBe(200);
    }
  });
});

describe('GET /transactions never fails on a parameter', () => {
  const parameters = ['q', 'posData[orderId]', 'createdFrom', 'createdTo', 'startingAfter', 'deviceId', 'status', 'methodType', 'minAmount', 'limit'];
  // Any text, with U+0000 and lone surrogates (which URLSearchParams sends as U+FFFD) mixed in, or a base64url cursor of it.
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: fc.constantFrom('0', '1', '9', '-', 'T', ':', 'Z', '.', '\u0000'), maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }).map((s) => Buffer.from(s).toString('base64url')),
  );

  it('answers 200 or 400, never 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...parameters), text, async (name, value) => {
        const res = await t.app.request(`/transactions?${new URLSearchParams({ [name]: value }).toString()}`, { headers: bearer(t.merchant.apiKey) });
        expect([200, 400], `${name}=${JSON.stringify(value)}`).toContain(res.status);
      }),
      { numRuns: 200 },
    );
  });
});
