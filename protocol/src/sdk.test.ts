import { describe, expect, it } from 'vitest';
import { ExpressReadyDetailSchema, FrameToHostMessageSchema, HostToFrameMessageSchema, SdkConfigSchema, SdkPaymentRequestSchema } from './sdk';
import { SAMPLE_PARTY } from './sample-party.test-fixture';

const base = { source: 'svc-card-frame', instanceId: 'abcdefgh12' } as const;

describe('postMessage schemas', () => {
  it('parse every frame message, the two kinds of result included', () => {
    expect(FrameToHostMessageSchema.safeParse({ ...base, type: 'ready' }).success).toBe(true);
    expect(FrameToHostMessageSchema.safeParse({ ...base, type: 'size', height: 10, width: 20 }).success).toBe(true);
    expect(
      FrameToHostMessageSchema.safeParse({ ...base, type: 'result', requestId: 'r', ok: false, error: { code: 'card_declined', message: 'no' } }).success,
    ).toBe(true);
    expect(
      FrameToHostMessageSchema.safeParse({ ...base, type: 'result', requestId: 'r', ok: true, error: { code: 'card_declined', message: 'no' } }).success,
    ).toBe(false);
    expect(FrameToHostMessageSchema.safeParse({ ...base, type: 'result', requestId: 'r', ok: false, error: { code: 'bogus', message: 'no' } }).success).toBe(
      false,
    );
  });

  it('drop what is not theirs', () => {
    expect(FrameToHostMessageSchema.safeParse({ ...base, source: 'someone-else', type: 'ready' }).success).toBe(false);
    expect(FrameToHostMessageSchema.safeParse({ ...base, instanceId: 'x', type: 'ready' }).success).toBe(false);
    expect(
      HostToFrameMessageSchema.safeParse({ source: 'svc-elements-host', instanceId: 'abcdefgh12', type: 'submit', requestId: 'r', card: { number: '4242' } })
        .success,
    ).toBe(false);
  });

  it('config refuses unknown options', () => {
    expect(SdkConfigSchema.safeParse({ mode: 'sandbox', clientId: 'ck_x', colour: 'red' }).success).toBe(false);
    expect(SdkConfigSchema.safeParse({ mode: 'sandbox', clientId: 'ck_x', methodType: 'authorize' }).success).toBe(true);
  });
});

describe('Express', () => {
  const party = SAMPLE_PARTY;

  it('a wallet payment carries billing and shipping details; a card payment does not, and unknown keys are refused', () => {
    const wallet = { method: 'applepay', amount: 1050, currency: 'USD', billingInformation: party, shippingInformation: party };
    expect(SdkPaymentRequestSchema.parse(wallet)).toEqual(wallet);
    expect(SdkPaymentRequestSchema.safeParse({ ...wallet, shippingInformation: { ...party, phone: '1' } }).success).toBe(false);
    expect(SdkPaymentRequestSchema.safeParse({ ...wallet, billingInformation: { ...party, postalCode: 'x'.repeat(21) } }).success).toBe(false);
    expect(
      SdkPaymentRequestSchema.safeParse({
        method: 'card',
        card: { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' },
        billingInformation: party,
      }).success,
    ).toBe(false);
  });

  it("onReady's reasons are availability reasons or SDK error codes", () => {
    const ready = { paypal: { canPay: true }, applepay: { canPay: false, reason: 'no_wallet_setup' }, googlepay: { canPay: false, reason: 'invalid_amount' } };
    expect(ExpressReadyDetailSchema.parse(ready)).toEqual(ready);
    expect(ExpressReadyDetailSchema.safeParse({ ...ready, paypal: { canPay: false, reason: 'because' } }).success).toBe(false);
  });
});
