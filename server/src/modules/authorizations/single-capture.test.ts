import { Status } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import type { ProcessorCapabilities } from '../../processor/processor';
import { STRIPE_CAPABILITIES } from '../../processor/stripe/stripe-processor';
import { RecordingProcessor } from '../../test/recording-processor';
import { useTestApp } from '../../test/harness';
import { authorizedHold, codeOf } from '../../test/merchant-client';

/** A processor that captures an authorization once (Stripe's capabilities), whose captures wait until `open()`. */
class GatedSingleCaptureProcessor extends RecordingProcessor {
  override readonly capabilities: ProcessorCapabilities = STRIPE_CAPABILITIES;
  #open!: () => void;
  readonly #gate = new Promise<void>((resolve) => (this.#open = resolve));

  open(): void {
    this.#open();
  }

  override async capture(...args: Parameters<RecordingProcessor['capture']>) {
    const answer = super.capture(...args); // counted at once, answered once the gate opens
    await this.#gate;
    return answer;
  }
}

const processor = new GatedSingleCaptureProcessor();
const t = useTestApp({ merchantName: 'Single Capture Shop', processor });

describe('a processor that captures an authorization once', () => {
  it('takes one of two concurrent partial captures; the other is refused before the processor is asked', async () => {
    const hold = await authorizedHold(t.app, t.client, 1000);
    const first = t.client.pay({ token: hold.token, amount: 300 });
    await processor.capturesCalled(1); // the first capture is reserved and at the processor
    const second = t.client.pay({ token: hold.token, amount: 200 });
    // The second is either answered (refused by its reservation) or reaches the processor too (both reserved).
    await Promise.race([second, processor.capturesCalled(2)]);
    processor.open();
    const answers = await Promise.all([first, second]);

    expect(answers.map((a) => a.status)).toEqual([200, 409]);
    expect(codeOf(answers[1].body)).toBe('processor_unsupported');
    expect((answers[1].body as unknown as { detail: string }).detail).toMatch(/capability `multipleCaptures`/);
    expect(processor.captures).toBe(1);
    const after = await t.client.get(hold.transactionNumber);
    expect(after.body).toMatchObject({ status: Status.AuthorizationClosed });
    expect(after.body.authorization).toMatchObject({ capturedCents: 300, releasedCents: 700 });
  });
});
