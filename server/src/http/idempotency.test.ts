import type { Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { addBranch, provisionTestMerchant } from '../test/fixtures';
import { authorizedHold, codeOf, merchantClient } from '../test/merchant-client';
import { useTestApp, UNTHROTTLED } from '../test/harness';

const t = useTestApp({ poolMax: 10, env: UNTHROTTLED, merchantName: 'Idempotent Shop' });

const key = (name: string) => ({ 'idempotency-key': `${name}-${Math.random().toString(36).slice(2)}` });

async function countTransactions(pos: string): Promise<number> {
  const [row] = await t.database.sql<
    { n: number }[]
  >`select count(*)::int as n from transactions where merchant_id = ${t.merchant.merchantId} and pos = ${pos}`;
  return row!.n;
}

describe('Idempotency-Key', () => {
  it('50 concurrent requests with one key make one effect; every success is the same response', async () => {
    const headers = key('burst');
    const body = { amount: 10, currency: 'USD' as const, pos: 'burst' };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => t.app.request('/transactions/init', { headers: { ...headers, authorization: `Bearer ${t.merchant.apiKey}` }, body })),
    );
    const texts = await Promise.all(answers.map((a) => a.text()));
    expect(await countTransactions('burst')).toBe(1);
    const ok = answers.map((a, i) => ({ status: a.status, text: texts[i]! })).filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => a.text)).size).toBe(1);
    answers.forEach((a, i) => {
      if (a.status !== 200) {
        expect(a.status).toBe(409);
        expect(codeOf(JSON.parse(texts[i]!))).toBe('idempotency_key_in_use');
      }
    });
    // Once the first has finished, the key always replays, byte for byte.
    const replay = await t.client.init(body, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(JSON.stringify(replay.body)).toBe(ok[0]!.text);
  });

  it('50 concurrent captures with one key capture once', async () => {
    const hold = await authorizedHold(t.app, t.client, 1000);
    const headers = key('capture');
    const answers = await Promise.all(Array.from({ length: 50 }, () => t.client.pay({ token: hold.token, amount: 100 }, headers)));
    expect(answers.every((a) => a.status === 200 || (a.status === 409 && codeOf(a.body) === 'idempotency_key_in_use'))).toBe(true);
    const after = (await t.client.get(hold.transactionNumber)).body;
    expect(after.authorization!.capturedCents).toBe(100);
    expect(after.payments).toHaveLength(1);
    const paymentIds = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.payment.paymentId));
    expect(paymentIds.size).toBe(1);
  });

  it('concurrent replays of a finished request all replay its answer, none is told the key is in use', async () => {
    const headers = key('replays');
    const body = { amount: 12, currency: 'USD' as const, pos: 'replays' };
    const first = await t.client.init(body, headers);
    expect(first.status).toBe(200);
    for (let round = 0; round < 3; round++) {
      const replays = await Promise.all(Array.from({ length: 10 }, () => t.client.init(body, headers)));
      expect(replays.map((r) => r.status)).toEqual(Array(10).fill(200));
      for (const replay of replays) {
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.body).toEqual(first.body);
      }
    }
    expect(await countTransactions('replays')).toBe(1);
  });

  it('the same key with another body: 422 idempotency_key_reused, and nothing happens', async () => {
    const headers = key('reuse');
    expect((await t.client.init({ amount: 10, currency: 'USD', pos: 'reuse' }, headers)).status).toBe(200);
    const other = await t.client.init({ amount: 11, currency: 'USD', pos: 'reuse' }, headers);
    expect(other.status).toBe(422);
    expect(codeOf(other.body)).toBe('idempotency_key_reused');
    expect(await countTransactions('reuse')).toBe(1);
    // Key order in the JSON does not make it another request.
    const reordered = await t.client.init({ pos: 'reuse', currency: 'USD', amount: 10 }, headers);
    expect(reordered.status).toBe(200);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keys are scoped per merchant', async () => {
    const headers = key('scope');
    const other = merchantClient(t.app, await provisionTestMerchant(t.database.db));
    const mine = await t.client.init({ amount: 10, currency: 'USD' }, headers);
    const theirs = await other.init({ amount: 10, currency: 'USD' }, headers);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.TransactionNumber).not.toBe(mine.body.TransactionNumber);
  });

  it("a key is the merchant's, but its answer replays only to the credential that stored it", async () => {
    const headers = key('caller');
    const { branchApiKey } = await addBranch(t.database.db, t.merchant.merchantId);
    const branchA = merchantClient(t.app, t.merchant, t.merchant.branchApiKey);
    const branchB = merchantClient(t.app, t.merchant, branchApiKey);
    const mine = await branchA.init({ amount: 10, currency: 'USD' }, headers);
    expect(mine.status).toBe(200);
    const theirs = await branchB.init({ amount: 10, currency: 'USD' }, headers);
    expect(theirs.status).toBe(422);
    expect(codeOf(theirs.body)).toBe('idempotency_key_reused');
    expect(JSON.stringify(theirs.body)).not.toContain(mine.body.TransactionNumber);
    expect((await branchA.init({ amount: 10, currency: 'USD' }, headers)).headers.get('idempotent-replayed')).toBe('true');
    // The public client ID spending a key first does not take it from the merchant's own backend.
    const origin = 'http://localhost:3000';
    const sessionHeaders = { ...key('shared'), origin };
    const session = await t.app.request('/sdk/sessions', {
      headers: sessionHeaders,
      body: { clientId: t.merchant.clientId, methodType: 'manual_capture', mode: 'sandbox' },
    });
    expect(session.status).toBe(200);
    const merchantCall = await t.client.init({ amount: 10, currency: 'USD' }, { 'idempotency-key': sessionHeaders['idempotency-key'] });
    expect(merchantCall.status).toBe(200);
    // Nor does replaying it from another origin hand that origin the session's token.
    const elsewhere = await t.app.request('/sdk/sessions', {
      headers: { ...sessionHeaders, origin: 'https://evil.example' },
      body: { clientId: t.merchant.clientId, methodType: 'manual_capture', mode: 'sandbox' },
    });
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.text()).not.toContain(((await session.json()) as { sessionToken: string }).sessionToken);
  });

  it('an SDK session started with a key replays its token, yet the idempotency store never holds the token', async () => {
    const headers = { ...key('session-secret'), origin: 'http://localhost:3000' };
    const body = { clientId: t.merchant.clientId, methodType: 'manual_capture', mode: 'sandbox' };
    const first = await t.app.request('/sdk/sessions', { headers, body });
    expect(first.status).toBe(200);
    const firstText = await first.text();
    const { sessionToken } = JSON.parse(firstText) as { sessionToken: string };
    const replay = await t.app.request('/sdk/sessions', { headers, body });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(firstText);
    // Neither the token nor the caller's key (from which the stored answer's seal is derived) is kept in the clear.
    const rows = await t.database.sql<
      { row: string }[]
    >`select row_to_json(k)::text as row from idempotency_keys k where merchant_id = ${t.merchant.merchantId}`;
    expect(rows.length).toBeGreaterThan(0);
    for (const { row } of rows) {
      expect(row).not.toContain(sessionToken);
      expect(row).not.toContain(sessionToken.slice('sess_'.length, 20));
      expect(row).not.toContain(headers['idempotency-key']);
    }
    // The same key with another body is still refused.
    const sameKeyOtherBody = await t.app.request('/sdk/sessions', { headers, body: { ...body, methodType: 'authorize' } });
    expect(sameKeyOtherBody.status).toBe(422);
  });

  it('validation failures are not stored; refusals are, and replay as they were', async () => {
    const headers = key('validation');
    expect((await t.client.init({ amount: 10.001, currency: 'USD' }, headers)).status).toBe(400);
    expect((await t.client.init({ amount: 10, currency: 'USD' }, headers)).status).toBe(200);

    const hold = await authorizedHold(t.app, t.client, 100);
    const refusalKey = key('refusal');
    const refused = await t.client.pay({ token: hold.token, amount: 500 }, refusalKey);
    expect(refused.status).toBe(409);
    const replayed = await t.client.pay({ token: hold.token, amount: 500 }, refusalKey);
    expect(replayed.status).toBe(409);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(replayed.body).toEqual(refused.body);
  });

  it('a key longer than 255 characters: 400 naming the header', async () => {
    const res = await t.client.init({ amount: 1, currency: 'USD' }, { 'idempotency-key': 'k'.repeat(256) });
    expect(res.status).toBe(400);
    expect((res.body as unknown as { errors: { path: string }[] }).errors[0]!.path).toBe('Idempotency-Key');
  });

  it('a stored response lives 24 hours, by the service clock', async () => {
    const headers = key('ttl');
    const first = await t.client.init({ amount: 3, currency: 'USD', pos: 'ttl' }, headers);
    await t.client.advanceClock(23 * 3600);
    expect((await t.client.init({ amount: 3, currency: 'USD', pos: 'ttl' }, headers)).body.TransactionNumber).toBe(first.body.TransactionNumber);
    await t.client.advanceClock(3600 + 1);
    const fresh = await t.client.init({ amount: 3, currency: 'USD', pos: 'ttl' }, headers);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect((fresh.body as Transaction).TransactionNumber).not.toBe(first.body.TransactionNumber);
  });
});
