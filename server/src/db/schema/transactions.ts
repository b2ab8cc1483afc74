import { Status, TRANSACTION_STATUSES, type TransactionStatusCode } from '@svc/protocol';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { branches, devices, merchantIdColumn } from './merchants';

const statusCodes = TRANSACTION_STATUSES.map((s) => s.status);
const money = (name: string) => bigint(name, { mode: 'number' });
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The money a transaction settled, which refunds may give back: an authorization's captures, else its amount (a sale
 * or a committed payment; whether it was paid at all is the refund's guard, by status).
 */
export function settledCents(t: { methodType: SQLWrapper; capturedCents: SQLWrapper; amountCents: SQLWrapper }): SQL {
  return sql`(case when ${t.methodType} = 'authorize' then ${t.capturedCents} else coalesce(${t.amountCents}, 0) end)`;
}

/** The transaction a row belongs to: `transaction_id`, required, referencing transactions. */
export const transactionIdColumn = () =>
  uuid('transaction_id')
    .notNull()
    .references(() => transactions.id);

export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionNumber: text('transaction_number').notNull().unique(),
    merchantId: merchantIdColumn(),
    /** Null for a transaction created with the merchant key: it belongs to no branch in particular. */
    branchId: uuid('branch_id').references(() => branches.id),
    deviceId: uuid('device_id').references(() => devices.id),
    methodType: text('method_type', { enum: ['sale', 'authorize', 'manual_capture', 'tokenize'] }).notNull(),
    status: smallint('status').$type<TransactionStatusCode>().notNull(),
    currency: text('currency').notNull(),
    amountCents: money('amount_cents'),
    products: jsonb('products')
      .notNull()
      .default(sql`'[]'::jsonb`),
    productSumMismatch: boolean('product_sum_mismatch').notNull().default(false),
    pos: text('pos'),
    posData: jsonb('pos_data'),
    phone: text('phone'),
    email: text('email'),
    /** init's `language`: the link's page and its SMS and e-mail speak it (null: the consumer's browser decides the page's). */
    language: text('language'),
    smsState: text('sms_state').notNull().default('Not requested'),
    callbackUrl: text('callback_url'),
    callbackMethod: text('callback_method', { enum: ['GET', 'POST'] })
      .notNull()
      .default('POST'),
    timeoutAt: at('timeout_at'),
    /** The hosted payment page's id: random and unguessable, it is the only credential of the consumer. */
    linkId: text('link_id').notNull().unique(),
    paymentType: text('payment_type'),
    confirmation: jsonb('confirmation'),
    /**
     * Authorization counters, cumulative over every hold of the transaction: `available = authorized - captured - released`.
     * A re-authorization releases what is left and adds the new hold to `authorized`. Balance changes are guarded
     * single UPDATEs; the CHECKs below make an overdraft impossible even for a wrong query.
     */
    authStatus: text('auth_status', { enum: ['active', 'captured', 'voided', 'closed', 'expired'] }),
    authorizedCents: money('authorized_cents').notNull().default(0),
    capturedCents: money('captured_cents').notNull().default(0),
    releasedCents: money('released_cents').notNull().default(0),
    /**
     * Captures asked of the processor and not answered yet (processor_requests): reserved, so `available` for a new
     * capture is `authorized - captured - released - capture_pending`; an approval moves its amount to `captured`.
     */
    capturePendingCents: money('capture_pending_cents').notNull().default(0),
    holdExpiresAt: at('hold_expires_at'),
    processor: text('processor'),
    supportsCloseAuth: boolean('supports_close_auth').notNull().default(false),
    /**
     * SDK payments (docs/integrating.md#browser-sdks): the consumer approved `approved_cents` in the widget; the merchant's backend
     * commits up to that before `commit_deadline`. The processor reference waits here until the commit issues a
     * token for it.
     */
    sdkSessionId: uuid('sdk_session_id'),
    commitId: text('commit_id'),
    commitDeadline: at('commit_deadline'),
    approvedCents: money('approved_cents'),
    committedAt: at('committed_at'),
    /**
     * Set while a consumer's payment of the link is at the processor (the card is in memory only, so this is no
     * processor_requests row): another payment, a cancel or a time-out waits for it, or for CONSUMER_PAYMENT_STALE_S
     * of the database's wall-clock time if the process that asked stopped.
     */
    consumerPaymentSince: at('consumer_payment_since'),
    /** Set while a commit's capture is at the processor (processor_requests): the window cannot expire it meanwhile. */
    commitInFlightSince: at('commit_in_flight_since'),
    processorReference: text('processor_reference'),
    /**
     * Refunds (refunds table): what succeeded refunds gave back, and what refunds at the processor have reserved. A
     * refund is reserved by a guarded write (`settled - refunded - in flight >= amount`) and moves to `refunded`, or
     * back, with its outcome; the CHECK below makes refunding more than was settled impossible even for a wrong query.
     */
    refundedCents: money('refunded_cents').notNull().default(0),
    refundsInFlightCents: money('refunds_in_flight_cents').notNull().default(0),
    /** init's `maxInstallments`: the most payments the consumer may split a card payment into (1: none). */
    maxInstallments: smallint('max_installments').notNull().default(1),
    /** The code of the consumer's most recent declined attempt (`authentication_failed`, …), and the processor's own beside it. */
    lastDeclineCode: text('last_decline_code'),
    lastDeclineProcessorCode: text('last_decline_processor_code'),
    sequence: integer('sequence').notNull().default(1),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  /*
   * Every index here costs a new entry on each insert and on each update that changes a column it covers or its
   * predicate (no HOT update): the status changes of a lifecycle write into every index of the table whose predicate
   * the row meets. So an index exists only for a query that needs it (bench/findings.md, lifecycle), and one on a
   * column that most rows leave null covers only the rows that have it. The table's pages are filled to 85 %
   * (migration 0024, not expressible here), so that the updates that change no indexed column find room for a HOT update.
   */
  (t) => [
    // GET /transactions, newest first by keyset (transaction-list.queries.ts): a merchant key's and a branch key's
    // pages read these in order and stop after a page. Their columns never change, so a status change stays a HOT
    // update (they cost an entry per insert only).
    index('transactions_merchant_created_idx').on(t.merchantId, t.createdAt, t.id),
    index('transactions_branch_created_idx')
      .on(t.merchantId, t.branchId, t.createdAt, t.id)
      .where(sql`${t.branchId} is not null`),
    // Its `q` search by a confirmation number or the last four digits of a card: both live in the confirmation an
    // approval writes (once), so only approved rows have an entry.
    index('transactions_confirmation_number_idx')
      .on(sql`(${t.confirmation} ->> 'confirmationNumber')`)
      .where(sql`${t.confirmation} ->> 'confirmationNumber' is not null`),
    index('transactions_last_four_idx')
      .on(t.merchantId, sql`(${t.confirmation} ->> 'lastFourDigits')`, t.createdAt, t.id)
      .where(sql`${t.confirmation} ->> 'lastFourDigits' is not null`),
    // The commit link's lookup (commits.queries.ts findByCommitId); only SDK payments that wait for a commit have one.
    uniqueIndex('transactions_commit_id_unique')
      .on(t.commitId)
      .where(sql`${t.commitId} is not null`),
    index('transactions_pending_timeout_idx')
      .on(t.timeoutAt)
      .where(sql`${t.status} = ${sql.raw(String(Status.Pending))}`),
    // A device's newest payable link (stickers), device-scoped event replay (realtime) and a device's pages of
    // GET /transactions (newest first by created_at, id); merchant and branch keys create transactions without a device.
    index('transactions_device_idx')
      .on(t.deviceId, t.createdAt, t.id)
      .where(sql`${t.deviceId} is not null`),
    // The newest transaction of an SDK session (sdk-sessions.queries.ts findLatestSessionTransaction).
    index('transactions_sdk_session_idx')
      .on(t.sdkSessionId, t.createdAt)
      .where(sql`${t.sdkSessionId} is not null`),
    check('transactions_status_known', sql`${t.status} between ${sql.raw(String(Math.min(...statusCodes)))} and ${sql.raw(String(Math.max(...statusCodes)))}`),
    check('transactions_amount_positive', sql`${t.amountCents} is null or ${t.amountCents} > 0`),
    check('transactions_sequence_positive', sql`${t.sequence} >= 1`),
    check('transactions_currency_known', sql`${t.currency} in ('USD', 'CAD', 'ILS', 'EUR', 'RUB')`),
    check(
      'transactions_auth_counters_non_negative',
      sql`${t.authorizedCents} >= 0 and ${t.capturedCents} >= 0 and ${t.releasedCents} >= 0 and ${t.capturePendingCents} >= 0`,
    ),
    check('transactions_auth_no_overdraft', sql`${t.capturedCents} + ${t.releasedCents} + ${t.capturePendingCents} <= ${t.authorizedCents}`),
    check('transactions_refunds_non_negative', sql`${t.refundedCents} >= 0 and ${t.refundsInFlightCents} >= 0`),
    check('transactions_refunds_within_settled', sql`${t.refundedCents} + ${t.refundsInFlightCents} <= ${settledCents(t)}`),
    check('transactions_auth_only_for_authorizations', sql`${t.authStatus} is null or ${t.methodType} = 'authorize'`),
    index('transactions_active_hold_idx')
      .on(t.holdExpiresAt)
      .where(sql`${t.authStatus} = 'active'`),
    index('transactions_awaiting_commit_idx')
      .on(t.commitDeadline)
      .where(sql`${t.status} = ${sql.raw(String(Status.AwaitingCommit))}`),
  ],
);
