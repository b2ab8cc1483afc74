import { z } from 'zod';
import { CURRENCIES } from './constants';

export type Currency = (typeof CURRENCIES)[number];

export const CurrencySchema = z
  .string()
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(CURRENCIES, { error: `currency must be one of ${CURRENCIES.join(', ')}` }));
