import { describe, expect, it } from 'vitest';
import { addBranch, holdBooks, insertTokenizedMethod, provisionTestMerchant } from '../../test/fixtures';
import { authorizedHold, codeOf, merchantClient } from '../../test/merchant-client';
import { useTestApp } from '../../test/harness';

const t = useTestApp({ merchantName: 'Capture Scope Shop' });

const booksOf = (transactionNumber: string) => holdBooks(t.database.sql, transactionNumber);

// A capture is one statement when it can be made (the token's lookup, the reservation and its processor request):
// the token's scope, type and currency are in that statement's guard, and a refusal is explained afterwards.
describe('a capture names its authorization by token, within the credential that may use it', () => {
  it("another branch's key and another merchant's key get 404 for the token, and nothing is reserved", async () => {
    const branchClient = merchantClient(t.app, t.merchant, t.merchant.branchApiKey);
    const hold = await authorizedHold(t.app, branchClient, 1000);
    const secondBranch = await addBranch(t.database.db, t.merchant.merchantId);
    const other = await provisionTestMerchant(t.database.db, 'Other Shop');

    for (const key of [secondBranch.branchApiKey, other.apiKey, other.branchApiKey]) {
      const refused = await merchantClient(t.app, t.merchant, key).pay({ token: hold.token, amount: 100 });
      expect(refused.status).toBe(404);
      expect(codeOf(refused.body)).toBe('not_found');
    }
    expect(await booksOf(hold.transactionNumber)).toMatchObject({ pending: 0, captured: 0, captureRequests: 0 });

    // The branch that made it and the merchant's own key may.
    expect((await branchClient.pay({ token: hold.token, amount: 100 })).status).toBe(200);
    expect((await t.client.pay({ token: hold.token, amount: 200 })).status).toBe(200);
    expect(await booksOf(hold.transactionNumber)).toMatchObject({ pending: 0, captured: 300, captureRequests: 2 });
  });

  it('another currency is refused with currency_mismatch, and too much with amount_exceeds_available; nothing is reserved', async () => {
    const hold = await authorizedHold(t.app, t.client, 1000);
    const euros = await t.client.pay({ token: hold.token, amount: 100, currency: 'EUR' });
    expect(euros.status).toBe(409);
    expect(codeOf(euros.body)).toBe('currency_mismatch');
    const tooMuch = await t.client.pay({ token: hold.token, amount: 1001, currency: 'USD' });
    expect(codeOf(tooMuch.body)).toBe('amount_exceeds_available');
    expect(await booksOf(hold.transactionNumber)).toMatchObject({ pending: 0, captured: 0, captureRequests: 0 });
  });

  it('a tokenized payment method is not a hold: the same endpoint charges it as a new sale', async () => {
    const token = await insertTokenizedMethod(t.database.db, t.merchant.merchantId, 'Scope Tokenized');
    const charged = await t.client.pay({ token, amount: 250, currency: 'USD' });
    expect(charged.status).toBe(200);
    expect(charged.body.payment).toMatchObject({ amountCents: 250, status: 'succeeded' });
  });
});
