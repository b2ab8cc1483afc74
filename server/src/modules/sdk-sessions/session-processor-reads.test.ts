import type { SdkSession } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import type { ProcessorRegistry } from '../../processor/processor-registry';
import { SandboxProcessor } from '../../processor/sandbox-processor';
import { UNTHROTTLED, useTestApp } from '../../test/harness';

/**
 * Which processor a merchant's session offers (installments, wallets) is read once per session, and once for a payment's
 * checks, not once per question.
 */
const SHOP = 'https://shop.example.com';
const sandbox = new SandboxProcessor();
const reads: string[] = [];
const processors: ProcessorRegistry = {
  forMerchant: (merchantId) => {
    reads.push(merchantId);
    return Promise.resolve(sandbox);
  },
  forget: () => undefined,
};
const t = useTestApp({ env: UNTHROTTLED, origins: [SHOP], processor: sandbox, processors });

describe("a widget session and the merchant's processor", () => {
  it("reads the merchant's processor once to start a session", async () => {
    reads.length = 0;
    const res = await t.app.request('/sdk/sessions', {
      headers: { origin: SHOP },
      body: { clientId: t.merchant.clientId, methodType: 'manual_capture', mode: 'sandbox', maxInstallments: 3 },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as SdkSession).maxInstallments).toBe(3);
    expect(reads).toEqual([t.merchant.merchantId]);
  });

  it("reads the merchant's processor once for all of a payment's checks, then for its call and its recording", async () => {
    const started = await t.app.request('/sdk/sessions', {
      headers: { origin: SHOP },
      body: { clientId: t.merchant.clientId, methodType: 'tokenize', mode: 'sandbox', maxInstallments: 3 },
    });
    expect(started.status).toBe(200);
    const session = (await started.json()) as SdkSession;
    reads.length = 0;
    // A tokenization (saved cards) in installments: two capabilities checked, one read.
    const paid = await t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
      // Card details come from the card frame, a page of the service.
      headers: { authorization: `Bearer ${session.sessionToken}`, origin: new URL(t.app.env.PUBLIC_BASE_URL).origin },
      body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' }, installments: 2 },
    });
    expect(paid.status).toBe(200);
    expect(reads).toEqual([t.merchant.merchantId, t.merchant.merchantId, t.merchant.merchantId]);
  });
});
