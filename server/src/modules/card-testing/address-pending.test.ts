import { describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { cardNumbered, codeOf, consumerPays } from '../../test/merchant-client';
import { RecordingProcessor } from '../../test/recording-processor';

/**
 * An address's attempts still waiting on the processor count against its hourly limit as declines do: attempts sent
 * all at once cannot pass it together.
 */
const processor = new RecordingProcessor();
const t = useTestApp({ env: { ...UNTHROTTLED, DECLINES_PER_ADDRESS_PER_HOUR: '20' }, processor });

describe('declines from one client address, all at once', () => {
  it('21 attempts on 21 links while the processor holds its answers: exactly 20 reach it, the 21st answers 429', async () => {
    const links = await Promise.all(Array.from({ length: 21 }, async () => (await t.client.init({ amount: 9, currency: 'USD' })).body));
    const gate = processor.holdAnswers();
    const answers = links.map((link) => consumerPays(t.app, link, cardNumbered('4000000000000002')));
    const refusal = new Promise<Awaited<(typeof answers)[number]>>((resolve) => {
      for (const answer of answers) void answer.then((answered) => answered.status === 429 && resolve(answered));
    });
    // Every attempt has either reached the processor (and waits there) or been refused: the count is final.
    await Promise.race([processor.salesCalled(21), Promise.all([processor.salesCalled(20), refusal])]);
    expect(processor.sales).toBe(20);
    expect(codeOf((await refusal).body)).toBe('too_many_declines');

    gate.answer();
    const statuses = (await Promise.all(answers)).map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array<number>(20).fill(402), 429]);
  });
});
