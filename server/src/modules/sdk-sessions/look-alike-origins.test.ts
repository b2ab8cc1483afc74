import type { SdkSession } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { codeOf } from '../../test/merchant-client';

/**
 * A client ID's origins are compared whole. Each origin below shares a start, an end or a host with an allowed one, so
 * a prefix, suffix or host-only comparison would let it in.
 */
const SHOP = 'https://shop.example.com';
const LOCAL = 'http://localhost:5173';
const LOOK_ALIKES = [
  ['a longer host', 'https://shop.example.com.evil.net'],
  ['a longer host without a dot', 'https://shop.example.comevil.net'],
  ['a host ending like it', 'https://evilshop.example.com'],
  ['a shorter host', 'https://example.com'],
  ['another port', 'https://shop.example.com:8443'],
  ['another scheme', 'http://shop.example.com'],
  ['a longer port', 'http://localhost:51730'],
  ['a shorter port', 'http://localhost:517'],
  ['no port', 'http://localhost'],
] as const;

const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Look-alike Shop', origins: [SHOP, LOCAL] });
const serviceOrigin = () => new URL(t.app.env.PUBLIC_BASE_URL).origin;

function startSession(origin: string, embeddingOrigin?: string) {
  return t.app.request('/sdk/sessions', {
    headers: { origin },
    body: { clientId: t.merchant.clientId, methodType: 'manual_capture', mode: 'sandbox', ...(embeddingOrigin ? { embeddingOrigin } : {}) },
  });
}

describe('origins that look like an allowed one', () => {
  it.each([SHOP, LOCAL])('%s itself starts a session', async (origin) => {
    expect((await startSession(origin)).status).toBe(200);
    expect((await startSession(serviceOrigin(), origin)).status).toBe(200);
  });

  it.each(LOOK_ALIKES)('%s (%s) cannot start a session, as the page or as the widget page names it', async (_what, origin) => {
    const fromPage = await startSession(origin);
    expect(fromPage.status).toBe(403);
    expect(codeOf(await fromPage.json())).toBe('origin_not_allowed');
    const named = await startSession(serviceOrigin(), origin);
    expect(named.status).toBe(403);
    expect(codeOf(await named.json())).toBe('origin_not_allowed');
  });

  it.each(LOOK_ALIKES)('%s (%s) cannot pay in a session of the allowed origin', async (_what, origin) => {
    const session = (await (await startSession(origin.startsWith('http://localhost') ? LOCAL : SHOP)).json()) as SdkSession;
    const paid = await t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
      headers: { authorization: `Bearer ${session.sessionToken}`, origin },
      body: { method: 'paypal', amount: 100, currency: 'USD' },
    });
    expect(paid.status).toBe(403);
    expect(codeOf(await paid.json())).toBe('origin_not_allowed');
  });
});
