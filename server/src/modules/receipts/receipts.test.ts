import { MAX_RECEIPT_BYTES } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../test/app';
import { addBranch } from '../../test/fixtures';
import { useTestApp } from '../../test/harness';

const t = useTestApp();

const receiptPath = (transactionNumber: string) => `/transactions/${transactionNumber}/receipt`;
const save = (transactionNumber: string, body: unknown, key = t.merchant.apiKey) =>
  t.app.request(receiptPath(transactionNumber), { headers: bearer(key), body });
const read = (transactionNumber: string, key = t.merchant.apiKey) => t.app.request(receiptPath(transactionNumber), { headers: bearer(key) });

/** A receipt whose JSON text is exactly `bytes` long. */
function receiptOfSize(bytes: number): Record<string, string> {
  const overhead = JSON.stringify({ text: '' }).length;
  return { text: 'x'.repeat(bytes - overhead) };
}

describe('POS receipts', () => {
  it('saves with the merchant key, reads back with savedAt, and the last save wins', async () => {
    const created = await t.client.init({ amount: 5, currency: 'USD' });
    const number = created.body.TransactionNumber;
    expect(created.body.posReceiptsEndpoint).toBe(`${t.app.env.PUBLIC_BASE_URL}${receiptPath(number)}`);
    expect((await read(number)).status).toBe(404);

    const first = await save(number, { receipt: { lines: [{ name: 'Tea', total: 5 }], footer: 'Thank you' } });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ saved: true });
    const saved = await read(number);
    expect(saved.status).toBe(200);
    const body = (await saved.json()) as { receipt: unknown; savedAt: string };
    expect(body.receipt).toEqual({ lines: [{ name: 'Tea', total: 5 }], footer: 'Thank you' });
    expect(Date.parse(body.savedAt)).not.toBeNaN();

    expect((await save(number, { receipt: { reprint: true } })).status).toBe(200);
    expect(((await (await read(number)).json()) as { receipt: unknown }).receipt).toEqual({ reprint: true });
  });

  it('keeps `__proto__`, `constructor` and `prototype` keys as sent, at the top and deeper, and reads them back exactly', async () => {
    const number = (await t.client.init({ amount: 5, currency: 'USD' })).body.TransactionNumber;
    // JSON.parse makes each of these an own property, as the POS's JSON text has it (an object literal would not).
    const text = '{"__proto__":{"admin":true},"constructor":{"name":"till 3"},"prototype":[1,2],"lines":[{"__proto__":"x","name":"Tea"}],"footer":"Thanks"}';
    const receipt = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(receipt)).toContain('__proto__');
    const saved = await save(number, { receipt });
    expect(saved.status).toBe(200);
    const back = JSON.parse(await (await read(number)).text()) as { receipt: Record<string, unknown> };
    expect(Object.keys(back.receipt).sort()).toEqual(Object.keys(receipt).sort());
    expect(back.receipt).toEqual(receipt);
    expect(Object.getOwnPropertyDescriptor(back.receipt, '__proto__')?.value).toEqual({ admin: true });
    expect(Object.getOwnPropertyDescriptor((back.receipt.lines as object[])[0], '__proto__')?.value).toBe('x');
  });

  it('takes a receipt of exactly 64 KB, refuses a larger one with 413 and keeps the saved one', async () => {
    const number = (await t.client.init({ amount: 5, currency: 'USD' })).body.TransactionNumber;
    const largest = receiptOfSize(MAX_RECEIPT_BYTES);
    expect((await save(number, { receipt: largest })).status).toBe(200);
    const tooLarge = await save(number, { receipt: receiptOfSize(MAX_RECEIPT_BYTES + 1) });
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { code: string }).code).toBe('payload_too_large');
    expect(((await (await read(number)).json()) as { receipt: unknown }).receipt).toEqual(largest);
  });

  it.each([[[1, 2]], ['text'], [null], [42]])('refuses a receipt that is not a JSON object (%j) with 400', async (receipt) => {
    const number = (await t.client.init({ amount: 5, currency: 'USD' })).body.TransactionNumber;
    const res = await save(number, { receipt });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string; errors: { path: string }[] }).errors[0]!.path).toBe('receipt');
    expect((await save(number, {})).status).toBe(400);
    expect((await read(number)).status).toBe(404);
  });

  it("lets the transaction's own device save and read it, and nobody else's", async () => {
    const own = await t.client.init({ amount: 5, currency: 'USD', deviceId: t.merchant.deviceId });
    const number = own.body.TransactionNumber;
    expect((await save(number, { receipt: { by: 'terminal' } }, t.merchant.deviceId)).status).toBe(200);
    expect((await read(number, t.merchant.deviceId)).status).toBe(200);
    // The same merchant's other device, and a transaction not sent to a device at all: 404, as for a stranger.
    const other = await addBranch(t.database.db, t.merchant.merchantId);
    expect((await save(number, { receipt: { by: 'another terminal' } }, other.deviceId)).status).toBe(404);
    expect((await read(number, other.deviceId)).status).toBe(404);
    const keyOnly = (await t.client.init({ amount: 5, currency: 'USD' })).body.TransactionNumber;
    expect((await save(keyOnly, { receipt: {} }, t.merchant.deviceId)).status).toBe(404);
    expect(((await (await read(number)).json()) as { receipt: unknown }).receipt).toEqual({ by: 'terminal' });
  });

  it('answers 404 for an unknown transaction and 401 without credentials', async () => {
    expect((await save('NOSUCHTRANSACTION', { receipt: {} })).status).toBe(404);
    expect((await read('NOSUCHTRANSACTION')).status).toBe(404);
    expect((await t.app.request(receiptPath('NOSUCHTRANSACTION'))).status).toBe(401);
  });
});
