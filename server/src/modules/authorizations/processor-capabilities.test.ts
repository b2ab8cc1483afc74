import { Status } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import type { ProcessorCapabilities } from '../../processor/processor';
import { SandboxProcessor } from '../../processor/sandbox-processor';
import { useTestApp } from '../../test/harness';
import { authorizedHold, codeOf, consumerPays, paidSale } from '../../test/merchant-client';

/** The sandbox's outcomes, with the capabilities of a processor that captures once and takes neither wallets nor refunds. */
class SingleCaptureProcessor extends SandboxProcessor {
  override readonly capabilities: ProcessorCapabilities = {
    multipleCaptures: false,
    reauthorize: false,
    closeAuth: false,
    refunds: false,
    wallets: false,
    installments: false,
    threeDSecure: false,
    savedCards: false,
  };
}

const t = useTestApp({ merchantName: 'Capabilities Shop', processor: new SingleCaptureProcessor() });
const detailOf = (body: unknown) => (body as { detail: string }).detail;

describe("what the merchant's processor cannot do", () => {
  it('a partial capture on a single-capture processor captures that amount and closes the hold (9), the rest released', async () => {
    const hold = await authorizedHold(t.app, t.client, 1000);
    const captured = await t.client.pay({ token: hold.token, amount: 300 });
    expect(captured.status).toBe(200);
    expect(captured.body.transaction).toMatchObject({ status: Status.AuthorizationClosed, statusName: 'AuthorizationClosed' });
    expect(captured.body.transaction.authorization).toMatchObject({
      status: 'closed',
      authorizedCents: 1000,
      capturedCents: 300,
      releasedCents: 700,
      availableCents: 0,
    });
    const again = await t.client.pay({ token: hold.token, amount: 100 });
    expect(codeOf(again.body)).toBe('authorization_not_active');
  });

  it('a full capture on it is an ordinary capture (7)', async () => {
    const hold = await authorizedHold(t.app, t.client, 800);
    const captured = await t.client.pay({ token: hold.token, amount: 800 });
    expect(captured.body.transaction).toMatchObject({ status: Status.Captured });
  });

  it('refuses a re-authorization before anything moves: 409 processor_unsupported naming processor and capability', async () => {
    const hold = await authorizedHold(t.app, t.client, 500);
    const refused = await t.client.authorize({ token: hold.token, amount: 900 });
    expect(refused.status).toBe(409);
    expect(codeOf(refused.body)).toBe('processor_unsupported');
    expect(detailOf(refused.body)).toMatch(/sandbox processor does not support re-authorization \(capability `reauthorize`\)/);
    expect((await t.client.get(hold.transactionNumber)).body).toMatchObject({ status: Status.Authorized, sequence: hold.transaction.sequence });
  });

  it('refuses closeAuth and refunds the same way', async () => {
    const hold = await authorizedHold(t.app, t.client, 500);
    expect(codeOf((await t.client.closeAuth(hold.transactionNumber)).body)).toBe('processor_unsupported');
    const sale = await paidSale(t.app, t.client, 700);
    const refund = await t.client.refund(sale.transactionNumber, { amount: 100 });
    expect(refund.status).toBe(409);
    expect(detailOf(refund.body)).toMatch(/capability `refunds`/);
    expect((await t.client.get(sale.transactionNumber)).body.status).toBe(Status.Approved);
  });

  it('refuses a wallet on a payment link, leaving the link payable by card', async () => {
    const created = await t.client.init({ amount: 12, currency: 'USD', methodType: 'sale' });
    const wallet = await consumerPays(t.app, created.body, { method: 'paypal' });
    expect(wallet.status).toBe(409);
    expect(codeOf(wallet.body)).toBe('processor_unsupported');
    expect((await consumerPays(t.app, created.body)).status).toBe(200);
  });
});
