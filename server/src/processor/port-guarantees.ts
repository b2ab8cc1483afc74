/**
 * Test support (imported by tests only): what every implementation of the processor port guarantees, as tests a
 * connector's own test file runs against its acquirer's test double (docs/design/processor-requests.md#writing-a-connector).
 * The sandbox processor's tests run them first.
 */
import { randomUUID } from 'node:crypto';
import type { CardInput, Currency } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import type { PaymentProcessor } from './processor';

export interface PortSubject {
  processor: PaymentProcessor;
  currency: Currency;
  /** A card the acquirer approves, and one it declines. */
  cards: { approved: CardInput; declined: CardInput };
  /**
   * The connector cannot look a payment up by its request key (Adyen finds none by its idempotency key): reversing a
   * key this process never paid with throws, for the worker to try again and then an operator to settle.
   */
  cannotFindPaymentByKey?: true;
}

/** A payment's details as a service passes them (the same with every attempt of one key): a transaction number, no installments. */
const details = (key: string) => ({ transactionNumber: `T${key.slice(4, 16)}`, installments: 1 });

/** A fresh request key, as a processor request carries one (`prq_…`). */
const newKey = () => `prq_${randomUUID().replaceAll('-', '')}`;

/** A fresh request key and the payment details sent with it. */
const keyed = () => {
  const key = newKey();
  return [key, details(key)] as const;
};

export function portGuarantees(name: string, subject: () => PortSubject | Promise<PortSubject>): void {
  describe(`${name}: the processor port's guarantees`, () => {
    const card = (which: 'approved' | 'declined', s: PortSubject) => ({ method: 'card' as const, card: s.cards[which] });

    it('answers a sale with a whole approval, and a repeated request key with the same answer (no second charge)', async () => {
      const s = await subject();
      const key = newKey();
      const first = await s.processor.sale(card('approved', s), 1_250, s.currency, key, details(key));
      expect(first).toMatchObject({ outcome: 'approved', processor: expect.any(String), reference: expect.any(String), authNumber: expect.any(String) });
      expect(await s.processor.sale(card('approved', s), 1_250, s.currency, key, details(key))).toEqual(first);
    });

    it('answers a decline as a result with its code, never by throwing', async () => {
      const s = await subject();
      const declined = await s.processor.sale(card('declined', s), 1_250, s.currency, ...keyed());
      expect(declined).toMatchObject({
        outcome: 'declined',
        code: expect.stringMatching(/^(card_declined|insufficient_funds|expired_card|incorrect_cvc|authentication_failed)$/),
      });
    });

    it('captures against a hold by its reference, once per request key', async () => {
      const s = await subject();
      const hold = await s.processor.authorize(card('approved', s), 5_000, s.currency, ...keyed());
      if (hold.outcome !== 'approved') throw new Error(`the hold was not placed: ${hold.outcome}`);
      const key = newKey();
      const captured = await s.processor.capture(hold.reference, 2_000, s.currency, key);
      // An asynchronous acquirer takes it (`pending`, its outcome by webhook); a repeated key is taken once.
      expect(['approved', 'pending']).toContain(captured.outcome);
      expect(await s.processor.capture(hold.reference, 2_000, s.currency, key)).toEqual(captured);
    });

    it('refunds a sale by its reference, once per request key', async () => {
      const s = await subject();
      const sale = await s.processor.sale(card('approved', s), 3_000, s.currency, ...keyed());
      if (sale.outcome !== 'approved') throw new Error(`the sale was not made: ${sale.outcome}`);
      const key = newKey();
      const refunded = await s.processor.refund(sale.reference, 1_000, key, s.currency);
      expect(['approved', 'pending']).toContain(refunded.outcome);
      expect(await s.processor.refund(sale.reference, 1_000, key, s.currency)).toEqual(refunded);
    });

    it('releases what a hold holds, again with the same key too', async () => {
      const s = await subject();
      const hold = await s.processor.authorize(card('approved', s), 5_000, s.currency, ...keyed());
      if (hold.outcome !== 'approved') throw new Error(`the hold was not placed: ${hold.outcome}`);
      const key = newKey();
      const released = await s.processor.release(hold.reference, 5_000, key);
      // Made (nothing to say), or taken with its outcome on its way (`pending`): the same again for the same key.
      if (released !== undefined) expect(released.outcome).toBe('pending');
      expect(await s.processor.release(hold.reference, 5_000, key)).toEqual(released);
    });

    it('reverses a payment by its request key: the key is refused afterwards, made or not yet arrived', async () => {
      const s = await subject();
      const key = newKey();
      expect((await s.processor.sale(card('approved', s), 1_250, s.currency, key, details(key))).outcome).toBe('approved');
      await expect(s.processor.reverse(key)).resolves.toBeUndefined();
      expect((await s.processor.sale(card('approved', s), 1_250, s.currency, key, details(key))).outcome).not.toBe('approved');
      // A reversal may come before its call (the call still on its way): the call is refused when it arrives.
      const late = newKey();
      // Nothing made with it yet: nothing to undo (a connector that looks the payment up says it found none), or, for a
      // connector that cannot look a payment up by its key, a throw (the worker tries again, then an operator settles it).
      if (s.cannotFindPaymentByKey) await expect(s.processor.reverse(late)).rejects.toThrow();
      else expect([undefined, 'nothing_found']).toContain((await s.processor.reverse(late))?.outcome);
      expect((await s.processor.sale(card('approved', s), 1_250, s.currency, late, details(late))).outcome).not.toBe('approved');
    });
  });
}
