import { describe, expect, it } from 'vitest';
import { portGuarantees } from './port-guarantees';
import { SandboxProcessor } from './sandbox-processor';

const card = (number: string) => ({ number, expMonth: 12, expYear: 2040, cvc: '123' });

portGuarantees('the sandbox processor', () => ({
  processor: new SandboxProcessor(),
  currency: 'USD',
  cards: { approved: card('4242424242424242'), declined: card('4000000000000002') },
}));

describe('the sandbox processor', () => {
  it('declines the refunds of the test card whose refunds are declined, as a result', async () => {
    const processor = new SandboxProcessor();
    const sale = await processor.sale({ method: 'card', card: card('4000000000005126') }, 1_000, 'USD', 'prq_norefund_sale');
    if (sale.outcome !== 'approved') throw new Error(`the sale was not made: ${sale.outcome}`);
    expect(await processor.refund(sale.reference, 1_000, 'prq_norefund_refund')).toEqual({ outcome: 'declined', processor: 'alpha', code: 'refund_declined' });
  });
});
