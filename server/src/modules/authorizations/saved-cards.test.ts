import type { SdkSession } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import type { ProcessorCapabilities } from '../../processor/processor';
import { SANDBOX_CAPABILITIES } from '../../processor/sandbox-processor';
import { useTestApp } from '../../test/harness';
import { insertTokenizedMethod } from '../../test/fixtures';
import { codeOf } from '../../test/merchant-client';
import { RecordingProcessor } from '../../test/recording-processor';

/** The sandbox's outcomes, with capabilities a test may change (as a merchant's account changing processor would). */
class SwitchableProcessor extends RecordingProcessor {
  override capabilities: ProcessorCapabilities = { ...SANDBOX_CAPABILITIES };
}

const processor = new SwitchableProcessor();
const t = useTestApp({ merchantName: 'Saved Cards Shop', origins: ['https://shop.example.com'], processor });
const detailOf = (body: unknown) => (body as { detail: string }).detail;

describe('a processor that saves no cards (savedCards false)', () => {
  it('refuses a token charge before the processor is asked: 409 processor_unsupported', async () => {
    // A card saved while the merchant's processor kept cards, charged once it no longer does.
    const token = await insertTokenizedMethod(t.database.db, t.merchant.merchantId, 'Saved Card');
    processor.capabilities = { ...SANDBOX_CAPABILITIES, savedCards: false };
    const charged = await t.client.pay({ token, amount: 500, currency: 'USD' });
    expect(charged.status).toBe(409);
    expect(codeOf(charged.body)).toBe('processor_unsupported');
    expect(detailOf(charged.body)).toMatch(/capability `savedCards`/);
    expect(processor.tokenCharges).toBe(0);
  });

  it('refuses a tokenize widget session before it exists, and its payment', async () => {
    // A session started while the merchant's processor kept cards: its payment is refused before the processor is asked.
    processor.capabilities = { ...SANDBOX_CAPABILITIES };
    const started = await t.app.request('/sdk/sessions', {
      headers: { origin: 'https://shop.example.com' },
      body: { clientId: t.merchant.clientId, methodType: 'tokenize', mode: 'sandbox' },
    });
    const { sessionId, sessionToken } = (await started.json()) as SdkSession;
    processor.capabilities = { ...SANDBOX_CAPABILITIES, savedCards: false };
    const paid = await t.app.request(`/sdk/sessions/${sessionId}/payments`, {
      headers: { authorization: `Bearer ${sessionToken}`, origin: new URL(t.app.env.PUBLIC_BASE_URL).origin },
      body: { method: 'card', card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' } },
    });
    expect(paid.status).toBe(409);
    expect(codeOf(await paid.json())).toBe('processor_unsupported');
    expect(processor.authorizations + processor.sales).toBe(0);

    const session = await t.app.request('/sdk/sessions', {
      headers: { origin: 'https://shop.example.com' },
      body: { clientId: t.merchant.clientId, methodType: 'tokenize', mode: 'sandbox' },
    });
    expect(session.status).toBe(409);
    expect(codeOf(await session.json())).toBe('processor_unsupported');
    const [sessions] = await t.database.sql<{ count: number }[]>`select count(*)::int as count from sdk_sessions`;
    expect(sessions!.count).toBe(1); // the first only
    // Other method types go on as before.
    const other = await t.app.request('/sdk/sessions', {
      headers: { origin: 'https://shop.example.com' },
      body: { clientId: t.merchant.clientId, methodType: 'manual_capture', mode: 'sandbox' },
    });
    expect(other.status).toBe(200);
  });
});
