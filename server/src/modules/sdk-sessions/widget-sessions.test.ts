import { Status, type SdkSession, type Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { codeOf } from '../../test/merchant-client';

/** The iframe SDK's widget page starts its session from the service's own origin, naming the page that frames it. */
const SHOP = 'https://shop.example.com';
const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Iframe Shop', origins: [SHOP] });
const serviceOrigin = () => new URL(t.app.env.PUBLIC_BASE_URL).origin;

function start(origin: string | undefined, embeddingOrigin: string | undefined, clientId = t.merchant.clientId) {
  return t.app.request('/sdk/sessions', {
    headers: origin ? { origin } : {},
    body: { clientId, methodType: 'manual_capture', mode: 'sandbox', ...(embeddingOrigin ? { embeddingOrigin } : {}) },
  });
}

describe('sessions of the iframe widget page', () => {
  it('start from the service origin for an embedding origin the client ID allows, and pay by card from there', async () => {
    const res = await start(serviceOrigin(), SHOP);
    expect(res.status).toBe(200);
    const session = (await res.json()) as SdkSession;
    const paid = await t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
      headers: { authorization: `Bearer ${session.sessionToken}`, origin: serviceOrigin() },
      body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' }, amount: 1050, currency: 'USD' },
    });
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as Transaction).status).toBe(Status.AwaitingCommit);
  });

  it('refuse an embedding origin the client ID does not allow, and an embedding origin named by any other page', async () => {
    const notAllowed = await start(serviceOrigin(), 'https://evil.example.com');
    expect(notAllowed.status).toBe(403);
    expect(codeOf(await notAllowed.json())).toBe('origin_not_allowed');
    // A merchant page (or any site) cannot claim to be framed by an allowed origin: only the widget page may name one.
    for (const origin of ['https://evil.example.com', SHOP, undefined]) {
      const claimed = await start(origin, SHOP);
      expect(claimed.status, `from ${origin ?? 'no origin'}`).toBe(403);
      expect(codeOf(await claimed.json())).toBe('origin_not_allowed');
    }
    const unknown = await start(serviceOrigin(), SHOP, 'ck_unknown');
    expect(unknown.status).toBe(401);
  });
});
