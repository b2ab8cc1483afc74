import type { Transaction } from '@svc/protocol';
import * as fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdyenProcessor } from '../../processor/adyen/adyen-processor';
import {
  ADYEN_TEST_ACCOUNT,
  ADYEN_TEST_HMAC_KEY,
  adyenDescriptions,
  modificationsSince,
  startAdyenDouble,
  tellAdyen,
  type AdyenDouble,
  type AdyenModification,
} from '../../test/adyen-double';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { authorizedHold, paidSale } from '../../test/merchant-client';

/**
 * Adyen's behaviour against the money rules (issue 33): random captures of a hold and refunds of a sale, every one
 * answered `received`, their webhooks delivered in any order, some refused, some sent twice or three times. After every
 * step the books must match a model that applies each outcome once: captured never more than authorized, what is
 * pending stays reserved, refunded never more than settled.
 */
const published = adyenDescriptions('the Adyen money-rules property test');
const processor = new AdyenProcessor({ ...ADYEN_TEST_ACCOUNT, returnUrl: 'http://localhost:8080/' });
const t = useTestApp({
  env: {
    ...UNTHROTTLED,
    ADYEN_HMAC_KEY: ADYEN_TEST_HMAC_KEY,
    ADYEN_MERCHANT_ACCOUNT: ADYEN_TEST_ACCOUNT.merchantAccount,
    ADYEN_API_KEY: ADYEN_TEST_ACCOUNT.apiKey,
  },
  processor,
});

type Step = { ask: number } | { tell: number; success: boolean; times: number };
const steps = fc.array(
  fc.oneof(fc.record({ ask: fc.integer({ min: 1, max: 4_000 }) }), fc.record({ tell: fc.nat(), success: fc.boolean(), times: fc.integer({ min: 1, max: 3 }) })),
  { minLength: 1, maxLength: 10 },
);

describe.skipIf(!published)('Adyen outcomes in any order, duplicated, never break the money rules', () => {
  let double: AdyenDouble;
  beforeAll(() => {
    double = startAdyenDouble(published!.checkout);
  });
  afterEach(() => expect(double.invalid).toEqual([]));
  afterAll(() => double.close());

  /** Runs `plan` on one transaction: `ask` a modification of that many cents, `tell` the outcome of a pending one (by index). */
  async function run(
    plan: Step[],
    transactionNumber: string,
    ask: (cents: number) => Promise<number>,
    suffix: 'captures' | 'refunds',
    event: { ok: 'CAPTURE' | 'REFUND'; failed: 'CAPTURE_FAILED' | 'REFUND_FAILED' },
    check: (model: { done: number; pending: number }, transaction: Transaction) => void,
    limit: number,
  ) {
    const model = { done: 0, pending: 0 };
    const waiting: (AdyenModification & { cents: number; told: boolean })[] = [];
    for (const step of plan) {
      if ('ask' in step) {
        if (model.done + model.pending + step.ask > limit) continue;
        const before = double.requests.length;
        expect(await ask(step.ask)).toBe(202);
        const taken = modificationsSince(double, before).filter((m) => m.kind === suffix);
        expect(taken).toHaveLength(1);
        waiting.push({ ...taken[0]!, merchantReference: transactionNumber, amount: { value: step.ask, currency: 'USD' }, cents: step.ask, told: false });
        model.pending += step.ask;
      } else {
        const modification = waiting[step.tell % Math.max(waiting.length, 1)];
        if (!modification) continue;
        // A failure is told as CAPTURE_FAILED/REFUND_FAILED or as the event with success false, both Adyen's ways.
        const failure = step.times % 2 === 0 ? { code: event.failed, success: 'true' as const } : { code: event.ok, success: 'false' as const };
        const told = step.success ? { code: event.ok, success: 'true' as const } : failure;
        await tellAdyen(
          t.app,
          published!.webhooks,
          modification,
          { event: told.code, success: told.success === 'true', reason: step.success ? '' : 'Refused' },
          step.times,
        );
        // Only the first outcome told for a modification counts; a later one (another event) changes nothing.
        if (!modification.told) {
          modification.told = true;
          model.pending -= modification.cents;
          if (step.success) model.done += modification.cents;
        }
      }
      check(model, (await t.client.get(transactionNumber)).body);
    }
  }

  it('captures of a hold', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        const hold = await authorizedHold(t.app, t.client, 8_000);
        await run(
          plan,
          hold.transactionNumber,
          async (cents) => (await t.client.pay({ token: hold.token, amount: cents })).status,
          'captures',
          { ok: 'CAPTURE', failed: 'CAPTURE_FAILED' },
          (model, transaction) => {
            expect(transaction.authorization).toMatchObject({ capturedCents: model.done, availableCents: 8_000 - model.done - model.pending });
            expect(transaction.payments.filter((p) => p.status === 'succeeded').reduce((sum, p) => sum + p.amountCents, 0)).toBe(model.done);
          },
          8_000,
        );
      }),
      { numRuns: 6 },
    );
  });

  it('refunds of a sale', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        const { transactionNumber } = await paidSale(t.app, t.client, 6_000);
        await run(
          plan,
          transactionNumber,
          async (cents) => (await t.client.refund(transactionNumber, { amount: cents })).status,
          'refunds',
          { ok: 'REFUND', failed: 'REFUND_FAILED' },
          (model, transaction) => {
            expect(transaction).toMatchObject({ refundedCents: model.done, refundableCents: 6_000 - model.done - model.pending });
            expect(transaction.refundedCents).toBeLessThanOrEqual(6_000);
          },
          6_000,
        );
      }),
      { numRuns: 6 },
    );
  });
});
