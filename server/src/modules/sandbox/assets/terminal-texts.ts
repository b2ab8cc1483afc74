/**
 * What the terminal simulator's script writes, as catalogue keys (browser-safe: the page hands the script these texts
 * in its language, `data-texts`): a transaction's status, a refusal's reason, and its other lines.
 */
import type { TransactionStatusName } from '@svc/protocol';
import type { TextKey } from '@svc/sdk-core/i18n';

/**
 * The statuses the simulator shows: the device's transaction waiting for a payment (Pending, or Declined for another
 * card), and what a tap or the consumer's cancel ends in.
 */
export const STATUS_TEXTS = {
  Pending: 'terminal.status.pending',
  Approved: 'terminal.status.approved',
  Authorized: 'terminal.status.authorized',
  Declined: 'terminal.status.declined',
  Cancelled: 'terminal.status.cancelled',
  Failed: 'terminal.status.failed',
} as const satisfies Partial<Record<TransactionStatusName, TextKey>>;

/** A refused tap, by its stable code: the shopper's text the widgets show for it (anything else is `error.unexpected`). */
export const REFUSAL_TEXTS = {
  card_declined: 'error.card_declined',
  insufficient_funds: 'error.insufficient_funds',
  invalid_card: 'error.invalid_card',
  processor_failure: 'error.processor_failure',
  too_many_declines: 'page.tooMany',
  rate_limited: 'page.tooMany',
} as const satisfies Record<string, TextKey>;

/** Every text the script writes. */
export const SCRIPT_TEXTS = [
  'terminal.none',
  'terminal.none.text',
  'terminal.paymentTo',
  'terminal.transaction',
  'terminal.processing',
  'terminal.result.card',
  'terminal.done',
  'terminal.refused',
  'terminal.unreachable',
  'terminal.unexpected',
  'terminal.revoked',
  'terminal.notDevice',
  'terminal.connecting',
  'terminal.unknown',
  'terminal.connected',
  'error.unexpected',
  ...Object.values(STATUS_TEXTS),
  ...Object.values(REFUSAL_TEXTS),
] as const satisfies readonly TextKey[];
