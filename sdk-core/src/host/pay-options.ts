/** Checks `pay(callback, options)` options before anything is sent: amount in cents, a known currency, a billing address. */
import type { BillingAddress, SdkError, SdkPayOptions } from '@svc/protocol';
import { parseWith, SdkPayOptionsWire } from '@svc/protocol/light';

export interface PaymentFields {
  amount?: number;
  currency?: string;
  billingAddress?: BillingAddress;
}

const HOW = 'Pass { amount, currency, billingAddress? } with the amount in cents (1050 for 10.50).';

export function payOptionsFrom(
  options: SdkPayOptions | undefined | null,
  methodType: string,
): { ok: true; value: PaymentFields } | { ok: false; error: SdkError } {
  if (options === undefined || options === null) {
    if (methodType !== 'manual_capture') return { ok: true, value: {} };
    return {
      ok: false,
      error: {
        code: 'invalid_amount',
        message:
          'pay needs { amount, currency } for manual_capture: the amount in cents and the currency, e.g. pay(callback, { amount: 1050, currency: "USD" }).',
      },
    };
  }
  const parsed = parseWith(SdkPayOptionsWire, options);
  if (parsed.ok) return parsed;
  const aboutAmount = parsed.path === 'amount' || parsed.path === 'currency' || parsed.path === '';
  return {
    ok: false,
    error: { code: aboutAmount ? 'invalid_amount' : 'config_invalid', message: `pay options: ${parsed.path || 'the options'} ${parsed.message}. ${HOW}` },
  };
}
