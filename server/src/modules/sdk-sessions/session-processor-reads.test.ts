import type { SdkSession } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import type { ProcessorRegistry } from '../../processor/processor-registry';
import { SandboxProcessor } from '../../processor/sandbox-processor';
import { UNTHROTTLED, useTestApp } from '../../test/harness';

/** Which processor a merchant's session offers (installments, wallets) is read once per session, not once per question. */
const SHOP = 'https://shop.example.com';
const sandbox = new SandboxProcessor();
const reads: string[] = [];
const processors: ProcessorRegistry = {
  forMerchant: (merchantId) => {
    reads.push(merchantId);
    return Promise.resolve(sandbox);
  },
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
});
