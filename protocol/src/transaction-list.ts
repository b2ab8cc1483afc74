import { z } from 'zod';
import { CREDENTIAL_PREFIXES, MAX_AMOUNT_CENTS, METHOD_TYPES, TRANSACTION_STATUSES } from './constants';
import type { TransactionStatusCode } from './status';
import { TransactionSchema } from './transaction';

/** A page of `GET /transactions` when `limit` is not given, and the most one page holds. */
export const TRANSACTION_PAGE_DEFAULT_LIMIT = 20;
export const TRANSACTION_PAGE_MAX_LIMIT = 100;
/** The most `posData[key]` filters one request may carry. */
export const TRANSACTION_LIST_MAX_POS_DATA_FILTERS = 10;

/** A query parameter given once: text. Given twice, it is refused rather than one of the values picked. */
const once = (description: string) => z.string({ error: 'must be given once' }).describe(description);

const wholeNumber = (description: string) =>
  once(description)
    .regex(/^\d{1,15}$/, 'must be a whole number')
    .transform(Number);

const KNOWN_STATUSES = new Set<number>(TRANSACTION_STATUSES.map((s) => s.status));

/** `status=7`, `status=5,6` or `status=5&status=6`: the codes, each checked against the status table. */
const StatusFilterSchema = z
  .union([z.string(), z.array(z.string())])
  .describe(`Status codes (${TRANSACTION_STATUSES[0].status} to ${TRANSACTION_STATUSES.at(-1)!.status}), repeated or comma-separated: any of them matches`)
  .transform((value, ctx) => {
    const codes = new Set<TransactionStatusCode>();
    for (const part of (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(','))) {
      const code = /^\d{1,2}$/.test(part.trim()) ? Number(part.trim()) : NaN;
      if (!KNOWN_STATUSES.has(code)) {
        ctx.addIssue({ code: 'custom', message: `${JSON.stringify(part)} is not a status code (see the status table)` });
        return z.NEVER;
      }
      codes.add(code as TransactionStatusCode);
    }
    return [...codes];
  });

const EARLIEST_STORABLE = Date.parse('0001-01-01T00:00:00Z');
const LATEST_STORABLE = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Whether an instant lies in the years 0001 to 9999 (UTC), the ones a time is written in and the database takes:
 * there is no year 0000, and an offset can move year 0001 or 9999 across either edge.
 */
export function isStorableInstant(epochMs: number): boolean {
  return epochMs >= EARLIEST_STORABLE && epochMs <= LATEST_STORABLE;
}

const DateTimeSchema = (description: string) =>
  once(description).pipe(
    z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 date-time, such as 2026-01-31T00:00:00Z' })
      .refine((text) => isStorableInstant(Date.parse(text)), 'must lie between the years 0001 and 9999 (UTC)'),
  );

const CentsFilterSchema = (description: string) => wholeNumber(description).pipe(z.number().max(MAX_AMOUNT_CENTS, 'is larger than the service accepts'));

/**
 * The query of `GET /transactions` (docs/integrating.md#listing-and-searching). Every value arrives as text; a
 * parameter it does not name is refused, so a misspelt filter never widens the list silently. `posData[key]=value`
 * arrives as `posData: { key: value }` (the endpoint router reads `name[key]` that way).
 */
export const ListTransactionsQuerySchema = z
  .object({
    limit: wholeNumber(`How many transactions a page holds: 1 to ${TRANSACTION_PAGE_MAX_LIMIT} (default ${TRANSACTION_PAGE_DEFAULT_LIMIT})`)
      .pipe(z.number().min(1, 'must be at least 1').max(TRANSACTION_PAGE_MAX_LIMIT, `must be at most ${TRANSACTION_PAGE_MAX_LIMIT}`))
      .optional(),
    startingAfter: once("The page after this one: the previous page's `nextCursor`. New transactions never shift the pages that follow it")
      .max(200)
      .regex(/^[A-Za-z0-9_-]+$/, "is not a cursor: pass the previous page's nextCursor as it came")
      .optional(),
    status: StatusFilterSchema.optional(),
    createdFrom: DateTimeSchema('Created at or after this time (ISO 8601)').optional(),
    createdTo: DateTimeSchema('Created before this time (ISO 8601)').optional(),
    methodType: z
      .enum(METHOD_TYPES, { error: `must be one of ${METHOD_TYPES.join(', ')}` })
      .describe('Only transactions of this method type')
      .optional(),
    minAmount: CentsFilterSchema('At least this amount, in cents').optional(),
    maxAmount: CentsFilterSchema('At most this amount, in cents').optional(),
    deviceId: once('Only the transactions of this device (its device ID, `dev_…`)')
      .max(200)
      .regex(new RegExp(`^${CREDENTIAL_PREFIXES.device}\\w+$`), `must be a device ID (${CREDENTIAL_PREFIXES.device}…)`)
      .optional(),
    posData: z
      .record(z.string().min(1).max(100), once('The value, compared as text').max(500))
      .refine((filters) => Object.keys(filters).length <= TRANSACTION_LIST_MAX_POS_DATA_FILTERS, {
        message: `at most ${TRANSACTION_LIST_MAX_POS_DATA_FILTERS} posData filters`,
      })
      .describe('`posData[key]=value`: only transactions whose posData has this key with exactly this value (as text)')
      .optional(),
    q: once('A transaction number, a confirmation number, or the last four digits of a card')
      .trim()
      .min(1, 'must not be empty')
      .max(64, 'is longer than any transaction or confirmation number')
      .optional(),
  })
  .strict()
  .superRefine((query, ctx) => {
    if (query.minAmount !== undefined && query.maxAmount !== undefined && query.minAmount > query.maxAmount) {
      ctx.addIssue({ code: 'custom', path: ['maxAmount'], message: 'must not be less than minAmount' });
    }
    if (query.createdFrom !== undefined && query.createdTo !== undefined && Date.parse(query.createdFrom) > Date.parse(query.createdTo)) {
      ctx.addIssue({ code: 'custom', path: ['createdTo'], message: 'must not be before createdFrom' });
    }
  });
export type ListTransactionsQuery = z.input<typeof ListTransactionsQuerySchema>;
export type ParsedListTransactionsQuery = z.output<typeof ListTransactionsQuerySchema>;

/** A page of `GET /transactions`: newest first; `nextCursor` asks for the page after it (null on the last page). */
export const TransactionPageSchema = z.object({
  data: z.array(TransactionSchema),
  hasMore: z.boolean().describe('Whether older transactions match too'),
  nextCursor: z.string().nullable().describe('Pass as `startingAfter` for the next page; null when `hasMore` is false'),
});
export type TransactionPage = z.infer<typeof TransactionPageSchema>;

/** The query of `GET /transactions` as a client writes it: numbers, dates and lists in their own types. */
export interface ListTransactionsParams {
  limit?: number;
  startingAfter?: string | null;
  status?: TransactionStatusCode | TransactionStatusCode[];
  createdFrom?: string | Date;
  createdTo?: string | Date;
  methodType?: (typeof METHOD_TYPES)[number];
  minAmount?: number;
  maxAmount?: number;
  deviceId?: string;
  posData?: Record<string, string>;
  q?: string;
}

/** `?limit=…&status=5,6&posData[orderId]=A-17…` for these parameters ('' for none); empty values are left out. */
export function listTransactionsSearch(params: ListTransactionsParams): string {
  const search = new URLSearchParams();
  const put = (name: string, value: string | number | Date | null | undefined) => {
    if (value === undefined || value === null || value === '') return;
    search.append(name, value instanceof Date ? value.toISOString() : String(value));
  };
  put('limit', params.limit);
  put('startingAfter', params.startingAfter);
  const statuses = params.status === undefined ? [] : Array.isArray(params.status) ? params.status : [params.status];
  if (statuses.length > 0) put('status', statuses.join(','));
  put('createdFrom', params.createdFrom);
  put('createdTo', params.createdTo);
  put('methodType', params.methodType);
  put('minAmount', params.minAmount);
  put('maxAmount', params.maxAmount);
  put('deviceId', params.deviceId);
  for (const [key, value] of Object.entries(params.posData ?? {})) put(`posData[${key}]`, value);
  put('q', params.q?.trim());
  const text = search.toString();
  return text ? `?${text}` : '';
}
