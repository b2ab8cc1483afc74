import { amountInputToCents, MAX_AMOUNT_CENTS, type ParsedInitTransactionRequest } from '@svc/protocol';
import { ValidationError } from '../../errors';
import type { StoredProduct } from './transaction-object';

export interface InitAmounts {
  amountCents: number | null;
  products: StoredProduct[];
  productSumMismatch: boolean;
}

/**
 * docs/integrating.md#amounts: amounts to cents in the unit `isCent` says; products summed as Σ (amount + vat − discount) × quantity.
 * No amount but products: the amount is the sum. Both and different: accepted, flagged. No amount at all: only an
 * authorization may leave it for later.
 */
export function resolveInitAmounts(body: ParsedInitTransactionRequest, methodType: 'sale' | 'authorize'): InitAmounts {
  const isCent = body.isCent === true;
  // Blank text is no amount either: amountInputToCents gives null for it.
  const toCents = (value: number | string | undefined | null): number | null =>
    value === undefined || value === null ? null : amountInputToCents(value, isCent);

  // The schemas have checked every amount (protocol checkProductAmounts); a product without one is still refused here
  // rather than counted as 0.
  const requiredCents = (value: number | string, index: number): number => {
    const cents = toCents(value);
    if (cents === null) throw new ValidationError([{ path: `products.${index}.amount`, message: 'is required' }]);
    return cents;
  };
  const products: StoredProduct[] = (body.products ?? []).map((p, index) => ({
    name: p.name,
    quantity: p.quantity,
    amountCents: requiredCents(p.amount, index),
    vatCents: toCents(p.vat),
    discountCents: toCents(p.discount),
    posIdentifier: p.posIdentifier ?? null,
  }));
  // A line can reach 10^17 cents (10^12 × 100 000), past 2^53 where a float stops counting in cents: sum in BigInt.
  const productSum = products.reduce(
    (sum, p) => sum + (BigInt(p.amountCents) + BigInt(p.vatCents ?? 0) - BigInt(p.discountCents ?? 0)) * BigInt(p.quantity),
    0n,
  );

  let amountCents = toCents(body.amount);
  let productSumMismatch = false;
  if (products.length > 0) {
    if (productSum <= 0n || productSum > BigInt(MAX_AMOUNT_CENTS)) {
      throw new ValidationError([
        { path: 'products', message: `the product sum must be greater than 0 and at most ${MAX_AMOUNT_CENTS} cents (it is ${productSum})` },
      ]);
    }
    if (amountCents === null) amountCents = Number(productSum);
    else productSumMismatch = BigInt(amountCents) !== productSum;
  }
  if (amountCents === null && methodType !== 'authorize') {
    throw new ValidationError([{ path: 'amount', message: 'is required (only an authorization may leave it for later)' }]);
  }
  return { amountCents, products, productSumMismatch };
}
