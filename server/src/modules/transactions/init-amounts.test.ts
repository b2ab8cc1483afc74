import { InitTransactionRequestSchema, MAX_AMOUNT_CENTS, type InitTransactionRequest, type ParsedInitTransactionRequest } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors';
import { resolveInitAmounts } from './init-amounts';

const parsed = (body: Omit<InitTransactionRequest, 'currency'>): ParsedInitTransactionRequest =>
  InitTransactionRequestSchema.parse({ currency: 'USD', ...body });

function refusal(body: ParsedInitTransactionRequest, methodType: 'sale' | 'authorize' = 'sale'): { path: string; message: string }[] {
  try {
    resolveInitAmounts(body, methodType);
  } catch (error) {
    if (error instanceof ValidationError) return error.options.errors ?? [];
    throw error;
  }
  throw new Error('expected the amounts to be refused');
}

describe('resolveInitAmounts', () => {
  it('reads the amount in major units, or in cents when isCent is true', () => {
    expect(resolveInitAmounts(parsed({ amount: '12.34' }), 'sale')).toEqual({ amountCents: 1234, products: [], productSumMismatch: false });
    expect(resolveInitAmounts(parsed({ amount: 12.3 }), 'sale').amountCents).toBe(1230);
    expect(resolveInitAmounts(parsed({ amount: 1234, isCent: true }), 'sale').amountCents).toBe(1234);
    expect(resolveInitAmounts(parsed({ amount: '1234', isCent: true }), 'sale').amountCents).toBe(1234);
    expect(resolveInitAmounts(parsed({ amount: 1234, isCent: false }), 'sale').amountCents).toBe(123_400);
  });

  it('keeps each product in cents, with vat and discount when sent and null when not', () => {
    const { products } = resolveInitAmounts(
      parsed({
        amount: '23.00',
        products: [
          { name: 'Tea', quantity: 2, amount: '10.00', vat: '1.00', discount: '0.50', posIdentifier: 'T-1' },
          { name: 'Cup', quantity: 1, amount: '2.00' },
        ],
      }),
      'sale',
    );
    expect(products).toEqual([
      { name: 'Tea', quantity: 2, amountCents: 1000, vatCents: 100, discountCents: 50, posIdentifier: 'T-1' },
      { name: 'Cup', quantity: 1, amountCents: 200, vatCents: null, discountCents: null, posIdentifier: null },
    ]);
  });

  it('sums products as (amount + vat − discount) × quantity when no amount is sent', () => {
    const body = parsed({
      products: [
        { name: 'Tea', quantity: 3, amount: 1000, vat: 100, discount: 50 },
        { name: 'Cup', quantity: 2, amount: 200, vat: 0 },
      ],
      isCent: true,
    });
    expect(resolveInitAmounts(body, 'sale')).toMatchObject({ amountCents: 3 * 1050 + 2 * 200, productSumMismatch: false });
    expect(resolveInitAmounts({ ...body, amount: null }, 'authorize').amountCents).toBe(3550);
    expect(resolveInitAmounts({ ...body, amount: '' }, 'sale').amountCents).toBe(3550);
  });

  it('accepts an amount that differs from the products, and flags it; an equal one is not flagged', () => {
    const products = [{ name: 'Tea', quantity: 2, amount: 500 }];
    expect(resolveInitAmounts(parsed({ amount: 1001, isCent: true, products }), 'sale')).toMatchObject({ amountCents: 1001, productSumMismatch: true });
    expect(resolveInitAmounts(parsed({ amount: 999, isCent: true, products }), 'sale')).toMatchObject({ amountCents: 999, productSumMismatch: true });
    expect(resolveInitAmounts(parsed({ amount: 1000, isCent: true, products }), 'sale')).toMatchObject({ amountCents: 1000, productSumMismatch: false });
  });

  it('refuses a product sum of 0 or less, and one over the maximum, in BigInt past 2^53', () => {
    const zero = refusal(parsed({ isCent: true, products: [{ name: 'Free', quantity: 1, amount: 100, discount: 100 }] }));
    expect(zero).toEqual([{ path: 'products', message: `the product sum must be greater than 0 and at most ${MAX_AMOUNT_CENTS} cents (it is 0)` }]);
    expect(refusal(parsed({ isCent: true, products: [{ name: 'Less', quantity: 2, amount: 100, discount: 101 }] }))[0]!.message).toMatch(/\(it is -2\)$/);
    // The largest sum there may be and one cent over it; 100 000 of the largest line is past 2^53, where a float miscounts.
    const max = resolveInitAmounts(parsed({ isCent: true, products: [{ name: 'All', quantity: 1, amount: MAX_AMOUNT_CENTS }] }), 'sale');
    expect(max.amountCents).toBe(MAX_AMOUNT_CENTS);
    const one = resolveInitAmounts(parsed({ isCent: true, products: [{ name: 'One', quantity: 1, amount: 1 }] }), 'sale');
    expect(one.amountCents).toBe(1);
    const over = refusal(parsed({ isCent: true, products: [{ name: 'All', quantity: 1, amount: MAX_AMOUNT_CENTS, vat: 1 }] }));
    expect(over[0]!.message).toMatch(new RegExp(`\\(it is ${MAX_AMOUNT_CENTS + 1}\\)$`));
    const huge = refusal(parsed({ isCent: true, products: [{ name: 'Many', quantity: 100_000, amount: MAX_AMOUNT_CENTS }] }));
    expect(huge[0]!.message).toMatch(/\(it is 100000000000000000\)$/);
  });

  it('refuses a product without an amount rather than count it as 0', () => {
    const body = parsed({ amount: '5.00', products: [{ name: 'Tea', quantity: 1, amount: '1.00' }] });
    const withoutAmount = { ...body, products: [{ ...body.products![0]!, amount: '' }] };
    expect(refusal(withoutAmount)).toEqual([{ path: 'products.0.amount', message: 'is required' }]);
  });

  it('leaves the amount for later only for an authorization', () => {
    expect(resolveInitAmounts(parsed({}), 'authorize')).toEqual({ amountCents: null, products: [], productSumMismatch: false });
    expect(refusal(parsed({}), 'sale')).toEqual([{ path: 'amount', message: 'is required (only an authorization may leave it for later)' }]);
    expect(refusal(parsed({ amount: null }), 'sale')).toEqual([{ path: 'amount', message: 'is required (only an authorization may leave it for later)' }]);
  });
});
