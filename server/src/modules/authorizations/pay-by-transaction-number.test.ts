import { Status } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { holdBooks, provisionTestMerchant } from '../../test/fixtures';
import { authorizedHold, codeOf, merchantClient } from '../../test/merchant-client';
import { useTestApp } from '../../test/harness';

const t = useTestApp({ merchantName: 'Capture By Number Shop' });

// Capture names its authorization as void does: by its token or by its transaction number.
describe('a capture by transaction number', () => {
  it("captures against the authorization's hold, as its token would", async () => {
    const hold = await authorizedHold(t.app, t.client, 1000);
    const first = await t.client.pay({ transactionNumber: hold.transactionNumber, amount: 400 });
    expect(first.status).toBe(200);
    expect(first.body.payment.amountCents).toBe(400);
    expect(first.body.transaction).toMatchObject({ TransactionNumber: hold.transactionNumber, status: Status.PartiallyCaptured });
    const rest = await t.client.pay({ token: hold.token, amount: 600 });
    expect(rest.body.transaction.status).toBe(Status.Captured);
    const more = await t.client.pay({ transactionNumber: hold.transactionNumber, amount: 1 });
    expect(more.status).toBe(409);
    expect(codeOf(more.body)).toBe('authorization_not_active');
    expect(await holdBooks(t.database.sql, hold.transactionNumber)).toMatchObject({ captured: 1000, captureRequests: 2 });
  });

  it('refuses a sale with not_an_authorization, and an unknown or foreign transaction with 404', async () => {
    const sale = await t.client.init({ amount: 5, currency: 'USD' });
    const refused = await t.client.pay({ transactionNumber: sale.body.TransactionNumber, amount: 100 });
    expect(refused.status).toBe(409);
    expect(codeOf(refused.body)).toBe('not_an_authorization');

    const unknown = await t.client.pay({ transactionNumber: 'T000000000', amount: 100 });
    expect(unknown.status).toBe(404);
    const other = await provisionTestMerchant(t.database.db, 'Other Number Shop');
    const hold = await authorizedHold(t.app, t.client, 1000);
    const foreign = await merchantClient(t.app, other).pay({ transactionNumber: hold.transactionNumber, amount: 100 });
    expect(foreign.status).toBe(404);
    expect(await holdBooks(t.database.sql, hold.transactionNumber)).toMatchObject({ pending: 0, captured: 0, captureRequests: 0 });
  });

  it('refuses an authorization whose consumer has not paid yet with authorization_not_active', async () => {
    const created = await t.client.init({ amount: 1000, isCent: true, currency: 'USD', methodType: 'authorize' });
    const refused = await t.client.pay({ transactionNumber: created.body.TransactionNumber, amount: 100 });
    expect(refused.status).toBe(409);
    expect(codeOf(refused.body)).toBe('authorization_not_active');
  });

  it('takes the token or the transaction number, never both or neither', async () => {
    const hold = await authorizedHold(t.app, t.client, 1000);
    for (const body of [{ token: hold.token, transactionNumber: hold.transactionNumber, amount: 100 }, { amount: 100 }]) {
      const refused = await t.client.pay(body);
      expect(refused.status).toBe(400);
      expect(codeOf(refused.body)).toBe('validation_failed');
    }
  });
});
