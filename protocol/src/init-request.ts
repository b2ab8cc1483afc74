import { z } from 'zod';
import { CallbackUrlSchema } from './callback-url';
import { CurrencySchema } from './currency';
import { ApiKeyFieldSchema } from './lifecycle-requests';
import { LANGUAGES, MAX_AMOUNT_CENTS, MAX_INSTALLMENTS } from './constants';
import { majorToCents } from './money';

const MAX_TIMEOUT_S = 90 * 24 * 3600;

const AmountInputSchema = z.union([z.number(), z.string().max(32)]);

/** A product as a merchant sends it, in the same unit as the transaction amount (`isCent`). */
/** How many payments a card payment may be split into at most (1: no installments). */
export const MaxInstallmentsSchema = z.number().int().min(1).max(MAX_INSTALLMENTS);

export const ProductInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  quantity: z.number().int().min(1).max(100_000),
  amount: AmountInputSchema,
  vat: AmountInputSchema.optional(),
  discount: AmountInputSchema.optional(),
  posIdentifier: z.string().max(100).optional(),
});
export type ProductInput = z.infer<typeof ProductInputSchema>;

/** Adds an issue when an amount as sent is not a valid amount in the unit `isCent` says (absent or empty passes). */
function checkAmount(ctx: z.RefinementCtx, value: unknown, path: (string | number)[], isCent: boolean, allowZero: boolean): void {
  if (value === undefined || value === null || value === '') return;
  const cents = amountInputToCents(value as number | string, isCent);
  if (cents === null) {
    ctx.addIssue({
      code: 'custom',
      path,
      message: isCent ? 'must be an integer number of cents (isCent is true)' : 'must be a number with at most two decimals (or set isCent and send cents)',
    });
  } else if (cents > MAX_AMOUNT_CENTS) {
    ctx.addIssue({ code: 'custom', path, message: `must be at most ${MAX_AMOUNT_CENTS} cents` });
  } else if (cents < (allowZero ? 0 : 1)) {
    ctx.addIssue({ code: 'custom', path, message: allowZero ? 'must not be negative' : 'must be greater than 0' });
  }
}

/** The amount rules of products, wherever they are sent (init, and commit in cents): each amount required and valid. */
export function checkProductAmounts(ctx: z.RefinementCtx, products: ProductInput[] | undefined, isCent: boolean): void {
  products?.forEach((p, i) => {
    if (p.amount === '') ctx.addIssue({ code: 'custom', path: ['products', i, 'amount'], message: 'is required' });
    checkAmount(ctx, p.amount, ['products', i, 'amount'], isCent, true);
    checkAmount(ctx, p.vat, ['products', i, 'vat'], isCent, true);
    checkAmount(ctx, p.discount, ['products', i, 'discount'], isCent, true);
  });
}

const caseInsensitive = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(values.map((v) => v.toLowerCase()) as unknown as T, { error: `${label} must be one of ${values.join(', ')}` }));

/** Body of `POST /transactions/init` (the spec's fields plus the optional ones of docs/integrating.md#endpoints). */
export const InitTransactionRequestSchema = z
  .strictObject({
    amount: z
      .union([AmountInputSchema, z.null()])
      .optional()
      .describe('Cents when isCent is true, else major units with at most two decimals. Blank for a future authorization.'),
    isCent: z.boolean().optional().describe('true: amount (and product amounts) are integer cents'),
    timeOut: z.number().int().min(1).max(MAX_TIMEOUT_S).optional().describe('Seconds until the transaction times out'),
    timeoutDate: z.iso.datetime({ offset: true }).optional(),
    currency: CurrencySchema,
    deviceId: z.string().max(200).optional().describe('A device ID (dev_…): authenticates when no API key is sent, and sends the transaction to that terminal'),
    apiKey: ApiKeyFieldSchema.optional(),
    callbackURL: CallbackUrlSchema.optional().describe('Receives a signed callback on every update (https in production)'),
    callbackMethod: z
      .string()
      .transform((v) => v.toUpperCase())
      .pipe(z.enum(['GET', 'POST'], { error: 'callbackMethod must be GET or POST' }))
      .optional()
      .describe('POST (default): the transaction object as the body; GET: TransactionNumber and callbackType in the query'),
    methodType: caseInsensitive(['sale', 'authorize'] as const, 'methodType').optional(),
    products: z.array(ProductInputSchema).max(500).optional(),
    posData: z.record(z.string().max(100), z.unknown()).optional(),
    pos: z.string().max(200).optional(),
    phone: z
      .string()
      .regex(/^\+?[0-9 ()-]{6,20}$/, 'phone must be a phone number such as +15555550100')
      .optional(),
    email: z.email().max(254).optional(),
    language: z
      .enum(LANGUAGES, { error: `language must be one of ${LANGUAGES.join(', ')}` })
      .optional()
      .describe("The consumer's language for the link's page and its SMS and e-mail texts (else the browser's)"),
    maxInstallments: MaxInstallmentsSchema.optional().describe('The most payments a card payment may be split into (1 when left out: no installments)'),
  })
  .superRefine((body, ctx) => {
    checkAmount(ctx, body.amount, ['amount'], body.isCent === true, false);
    checkProductAmounts(ctx, body.products, body.isCent === true);
    if (body.timeOut !== undefined && body.timeoutDate !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['timeoutDate'], message: 'send either timeOut or timeoutDate, not both' });
    }
  });
export type InitTransactionRequest = z.input<typeof InitTransactionRequestSchema>;
export type ParsedInitTransactionRequest = z.output<typeof InitTransactionRequestSchema>;

/** An amount as sent (number or decimal text) to cents: integer when `isCent`, else at most two decimals. */
export function amountInputToCents(value: number | string, isCent: boolean): number | null {
  if (isCent) {
    const n = typeof value === 'number' ? value : /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
    return Number.isSafeInteger(n) ? n : null;
  }
  return majorToCents(value);
}
