import { z } from 'zod';
import { SANDBOX_TEST_CARDS } from './sandbox';
import { ApiKeyFieldSchema, PaymentLinkStateSchema, WalletMethodSchema } from './lifecycle-requests';

const DeviceIdFieldSchema = z.string().max(200);

/**
 * The consumer channels (docs/integrating.md#paying-as-a-consumer) beyond the payment link itself: stickers, receipts and the sandbox
 * terminal simulator's API.
 */

/** Largest receipt `POST /transactions/:transactionNumber/receipt` keeps: its JSON text in UTF-8 bytes. */
export const MAX_RECEIPT_BYTES = 64 * 1024;

/** How often the sticker's "No payment is waiting" page asks `GET /s/:stickerCode/next`. */
export const STICKER_POLL_INTERVAL_MS = 2_000;

/** `POST /transactions/:transactionNumber/receipt`: any JSON object (not an array, not a scalar), ≤ 64 KB. */
export const SaveReceiptRequestSchema = z.strictObject({
  receipt: z
    .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
    .describe('The receipt as the POS has it: any JSON object up to 64 KB (its UTF-8 JSON text). A later save replaces it.'),
  apiKey: ApiKeyFieldSchema.optional(),
  deviceId: DeviceIdFieldSchema.optional(),
});
export type SaveReceiptRequest = z.input<typeof SaveReceiptRequestSchema>;

export const SaveReceiptResponseSchema = z.object({ saved: z.literal(true) });
export type SaveReceiptResponse = z.infer<typeof SaveReceiptResponseSchema>;

export const ReceiptSchema = z.object({
  receipt: z.record(z.string(), z.unknown()),
  savedAt: z.iso.datetime().describe('When the receipt now stored was saved (the service clock)'),
});
export type Receipt = z.infer<typeof ReceiptSchema>;

/**
 * `GET /s/:stickerCode/next`: what the sticker's waiting page polls. A payment waiting on the device answers its
 * page's URL; nothing waiting answers `waiting`. Never the device ID or anything secret.
 */
export const StickerNextSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('waiting') }),
  z.object({ type: z.literal('payment'), url: z.string().describe("The hosted payment page of the device's newest pending transaction") }),
]);
export type StickerNext = z.infer<typeof StickerNextSchema>;

/** The test card numbers the terminal simulator taps (docs/integrating.md#sandbox). */
export const TerminalCardNumberSchema = z.enum(SANDBOX_TEST_CARDS.map((card) => card.number) as [string, ...string[]]);

/** `POST /sandbox/terminal/tap`: the consumer taps a test card or a wallet on the device's transaction. */
export const TerminalTapRequestSchema = z.discriminatedUnion('method', [
  z.strictObject({
    method: z.literal('card'),
    transactionNumber: z.string().min(1).max(64),
    cardNumber: TerminalCardNumberSchema.describe('One of the sandbox test cards, digits only'),
    deviceId: DeviceIdFieldSchema.optional(),
  }),
  z.strictObject({ method: WalletMethodSchema, transactionNumber: z.string().min(1).max(64), deviceId: DeviceIdFieldSchema.optional() }),
]);
export type TerminalTapRequest = z.input<typeof TerminalTapRequestSchema>;

/** `POST /sandbox/terminal/cancel`: the consumer cancels on the terminal (Pending → Cancelled). */
export const TerminalCancelRequestSchema = z.strictObject({ transactionNumber: z.string().min(1).max(64), deviceId: DeviceIdFieldSchema.optional() });
export type TerminalCancelRequest = z.input<typeof TerminalCancelRequestSchema>;

/** `GET /sandbox/terminal/current`: the device's newest pending transaction as its screen shows it, or none. */
export const TerminalCurrentSchema = z.object({
  transaction: PaymentLinkStateSchema.nullable().describe('The newest pending transaction of the device, null when none is waiting'),
});
export type TerminalCurrent = z.infer<typeof TerminalCurrentSchema>;

/** Pages and images are described with their content type; their body is not JSON. */
export const HtmlPageSchema = z.string().describe('An HTML page');
export const SvgImageSchema = z.string().describe('An SVG image');
