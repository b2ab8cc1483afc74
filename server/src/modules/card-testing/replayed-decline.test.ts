import { endpointRequest, Status, type ConsumerPayRequest, type PaymentLinkState, type SdkSession } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { cardNumbered, TEST_CARD } from '../../test/merchant-client';

/**
 * A replay (the same Idempotency-Key) answers the decline it stored without asking the processor: it is not another
 * declined attempt, and five of them leave the link or the session as free to pay as the one decline did.
 */
const SHOP = 'https://shop.example.com';
const t = useTestApp({ env: UNTHROTTLED, origins: [SHOP] });
const DECLINED = cardNumbered('4000000000000002');

describe('a replayed decline is not counted as a new one', () => {
  it('on a payment link: one decline, five replays, then a good card under a new key pays', async () => {
    const link = (await t.client.init({ amount: 9, currency: 'USD' })).body;
    const linkId = link.transactionPage.qrURL.split('/pay/')[1]!;
    const pay = (card: ConsumerPayRequest, key: string) =>
      t.app.request(endpointRequest('payPaymentLink', { linkId }).path, { headers: { 'idempotency-key': key }, body: card });

    const declined = await pay(DECLINED, 'attempt-1');
    expect(declined.status).toBe(402);
    const stored = await declined.json();
    for (let replay = 1; replay <= 5; replay++) {
      const again = await pay(DECLINED, 'attempt-1');
      expect(again.status, `replay ${replay}`).toBe(402);
      expect(await again.json()).toEqual(stored);
    }
    const paid = await pay(TEST_CARD, 'attempt-2');
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as PaymentLinkState).status).toBe(Status.Approved);
  });

  it('in an SDK session: one decline, five replays, then a good card under a new key pays', async () => {
    const started = await t.app.request('/sdk/sessions', {
      headers: { origin: SHOP },
      body: { clientId: t.merchant.clientId, methodType: 'authorize', mode: 'sandbox' },
    });
    const session = (await started.json()) as SdkSession;
    const pay = (card: ConsumerPayRequest, key: string) =>
      t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
        headers: { authorization: `Bearer ${session.sessionToken}`, origin: new URL(t.app.env.PUBLIC_BASE_URL).origin, 'idempotency-key': key },
        body: { ...card, amount: 700, currency: 'USD' },
      });

    expect((await pay(DECLINED, 'attempt-1')).status).toBe(402);
    for (let replay = 1; replay <= 5; replay++) expect((await pay(DECLINED, 'attempt-1')).status, `replay ${replay}`).toBe(402);
    expect((await pay(TEST_CARD, 'attempt-2')).status).toBe(200);
  });
});
