import { describe, expect, it } from 'vitest';
import { connectorReadiness } from './connector-readiness';
import { SandboxProcessor } from './sandbox-processor';
import { StripeProcessor } from './stripe/stripe-processor';

describe("a connector's readiness", () => {
  it("reports the acquirer's last answer, and never makes the instance unready", () => {
    const stripe = new StripeProcessor({ secretKey: 'sk_test_x', apiBase: 'http://127.0.0.1:9' });
    const check = connectorReadiness(stripe, () => new Date('2026-01-01T00:00:12Z'));
    expect(check()).toEqual({ ok: true, detail: 'stripe: no call answered since this instance started' });
    stripe.lastAnswerAt = new Date('2026-01-01T00:00:10Z');
    expect(check()).toEqual({ ok: true, detail: 'stripe: last call answered 2.0 s ago' });
    expect(connectorReadiness(new SandboxProcessor())().ok).toBe(true);
  });

  it('asks the connector whether it calls an acquirer, never which kind it is', () => {
    /** The sandbox's outcomes from an acquirer reached over the network (as a test double of one would be). */
    class RemoteSandbox extends SandboxProcessor {
      override readonly remote = true;
      lastAnswerAt = new Date('2026-01-01T00:00:10Z');
    }
    const at = () => new Date('2026-01-01T00:00:12Z');
    expect(connectorReadiness(new RemoteSandbox(), at)()).toEqual({ ok: true, detail: 'sandbox: last call answered 2.0 s ago' });
    expect(connectorReadiness(new SandboxProcessor(), at)()).toEqual({ ok: true, detail: 'sandbox: answers in memory' });
  });
});
