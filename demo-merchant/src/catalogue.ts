import type { Currency } from '@svc/protocol';
import { z } from 'zod';
import { DemoError } from './demo-error';

/** What the shop sells. Prices are the shop's, in cents: the browser sends product ids and quantities, never amounts. */
export const CATALOGUE = [
  { productId: 'mug', name: 'Ceramic mug', priceCents: 1250 },
  { productId: 'tea', name: 'Loose-leaf tea, 100 g', priceCents: 800 },
  { productId: 'tote', name: 'Canvas tote bag', priceCents: 1500 },
] as const;
export const SHOP_CURRENCY: Currency = 'USD';

/** The cart a checkout starts with when the page sends none: two mugs, 25.00 USD. */
const DEFAULT_CART = [{ productId: 'mug', quantity: 2 }];

export const CartSchema = z.array(z.object({ productId: z.string().max(50), quantity: z.number().int().min(1).max(99) })).max(20);
export type CartInput = z.infer<typeof CartSchema>;

export interface PricedCart {
  lines: { productId: string; name: string; quantity: number; priceCents: number }[];
  description: string;
  amount: number;
  currency: Currency;
}

/** Prices a cart with the shop's own prices; an unknown product or an empty cart is refused. */
export function priceCart(items: CartInput | undefined): PricedCart {
  const wanted = items ?? DEFAULT_CART;
  if (wanted.length === 0) throw new DemoError(400, 'The cart is empty: add a product first.', 'cart_empty');
  const lines = wanted.map(({ productId, quantity }) => {
    const product = CATALOGUE.find((p) => p.productId === productId);
    if (!product) throw new DemoError(400, `This shop sells no product "${productId}".`, 'unknown_product');
    return { productId, name: product.name, quantity, priceCents: product.priceCents };
  });
  return {
    lines,
    description: lines.map((l) => `${l.name} × ${l.quantity}`).join(', '),
    amount: lines.reduce((sum, l) => sum + l.priceCents * l.quantity, 0),
    currency: SHOP_CURRENCY,
  };
}
