import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoApp } from '../app';
import { loadDemoConfig } from '../config';

const servers: http.Server[] = [];
afterEach(() => servers.forEach((s) => s.close()));

const SECRETS = { commitLink: 'http://service.test/transactions/commitPayment/cmt_secret', token: 'auth_secret_token', posData: 'till-secret' };

/** A transaction as the service answers it, with what only the shop's backend may see. */
const transaction = (n: number) => ({
  TransactionNumber: `T${n}`,
  createdAt: `2026-01-0${n}T00:00:00.000Z`,
  methodType: 'authorize',
  amountCents: 1000 * n,
  currency: 'USD',
  status: 5,
  statusName: 'Authorized',
  confirmation: { confirmationNumber: `000000000${n}`, lastFourDigits: '4242' },
  paymentCommit: { commitLink: SECRETS.commitLink },
  paymentDetails: { type: 'authorization', token: SECRETS.token },
  posData: { till: SECRETS.posData },
});

async function start(fetchImpl: typeof fetch) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-'));
  const file = path.join(dir, 'creds.json');
  await fs.writeFile(
    file,
    JSON.stringify({ merchantId: 'm-1', branchId: 'b-1', apiKey: 'sk_x', branchApiKey: 'bk_x', clientId: 'ck_x', deviceId: 'dev_x', hmacSecret: 'whsec_x' }),
  );
  const server = http.createServer(createDemoApp(loadDemoConfig({ DEMO_CREDENTIALS_FILE: file, SERVICE_URL: 'http://service.test/' }), fetchImpl));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the back office transaction search', () => {
  it("asks the service's GET /transactions with the API key and gives the page a summary, never the shop's secrets", async () => {
    const calls: { url: string; authorization: string }[] = [];
    const base = await start((async (url: string, init: RequestInit) => {
      calls.push({ url, authorization: (init.headers as Record<string, string>).authorization! });
      return new Response(JSON.stringify({ data: [transaction(2), transaction(1)], hasMore: true, nextCursor: 'CURSOR_2' }), { status: 200 });
    }) as typeof fetch);

    const first = await fetch(`${base}/api/transactions?q=4242&status=5&startingAfter=&`);
    const text = await first.text();
    expect(first.status).toBe(200);
    const page = JSON.parse(text) as { transactions: unknown[]; hasMore: boolean; nextCursor: string; statuses: unknown[] };
    expect(page).toMatchObject({ hasMore: true, nextCursor: 'CURSOR_2' });
    expect(page.transactions[0]).toEqual({
      transactionNumber: 'T2',
      createdAt: '2026-01-02T00:00:00.000Z',
      methodType: 'authorize',
      amountCents: 2000,
      currency: 'USD',
      status: 5,
      statusName: 'Authorized',
      confirmationNumber: '0000000002',
      lastFourDigits: '4242',
      installments: null,
      threeDSecure: null,
      lastDeclineCode: null,
    });
    expect(page.statuses).toContainEqual({ status: 5, statusName: 'Authorized' });
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);

    await fetch(`${base}/api/transactions?startingAfter=CURSOR_2`);
    expect(calls).toEqual([
      { url: 'http://service.test/transactions?limit=10&status=5&q=4242', authorization: 'Bearer sk_x' },
      { url: 'http://service.test/transactions?limit=10&startingAfter=CURSOR_2', authorization: 'Bearer sk_x' },
    ]);
  });

  it("refuses a bad search itself, and relays the service's refusal as it words it", async () => {
    const base = await start(
      (async () =>
        new Response(
          JSON.stringify({
            type: 'about:blank',
            title: 'Bad',
            status: 400,
            detail: 'startingAfter: is not a cursor',
            code: 'validation_failed',
            requestId: 'r',
          }),
          {
            status: 400,
            headers: { 'content-type': 'application/problem+json' },
          },
        )) as typeof fetch,
    );
    for (const query of ['status=99', 'status=1&status=2', 'sort=asc']) expect((await fetch(`${base}/api/transactions?${query}`)).status).toBe(400);
    const relayed = await fetch(`${base}/api/transactions?startingAfter=stale`);
    expect([relayed.status, await relayed.json()]).toEqual([400, { code: 'validation_failed', message: 'startingAfter: is not a cursor' }]);
  });
});
