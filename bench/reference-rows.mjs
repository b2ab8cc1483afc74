// The reference's second shape (REF_ROWS=service): the same four calls, each writing the rows the service's request
// writes, into the service's own tables (with their columns, indexes, constraints and foreign keys), in as many
// transactions as the service commits, one plain statement a row, with the notification each change sends, and
// nothing else: no authentication, no validation, no guards beyond the row's id, no views. Its payloads are built as
// the service builds them (the transaction object as JSON: about 1.2 KB at creation, 2.3 KB after a payment, which
// PostgreSQL compresses to about 1 KB), and each payment request keeps an answer of the size the service keeps (the
// link's state, 0.3 KB; the capture's payment and transaction, 2.6 KB). Each change also logs the merchant's events it
// sends (merchant_events: two for the payment, two for the capture) and queues its notice in the realtime outbox
// (event_publications), which is published after the commit by a NOTIFY and deleted, each a statement of its own, as
// the service's update bus does. A payment of the link first claims the card-testing windows of the link and of the
// address (two upserts) and writes the consumer's card attempt, in a transaction of their own, and deletes the attempt
// with its outcome, as the service's card-testing limit does (a row that does not outlive the request, so
// write-count.mjs's xmin count does not see it, nor the outbox row; the wire count does). The merchant's processor
// account is read once a request that needs it (init, pay, capture), where the service reads it six times a sequence.
// It writes into a database of its own (reference-client.mjs `rowsReferenceDatabase`), so the service's tables never
// meet its rows. One direct implementation of the service's data, not a floor: what the service spends beyond it is
// its code, what it spends beyond the plain reference is mostly the data it keeps.
import { randomBytes, randomUUID } from 'node:crypto';

const hex = (bytes) => randomBytes(bytes).toString('hex');
const digits = () => String(1_000_000_000 + (randomBytes(4).readUInt32BE(0) % 1_000_000_000));
const NOTICE_CHANNEL = 'svc_bench_reference_rows';

/** A card approval as the sandbox processor gives it (the transaction's `confirmation`). */
function confirmationOf() {
  const number = digits();
  const auth = digits().slice(-6);
  return {
    paymentType: 'card',
    confirmationNumber: number,
    fullConfirmationCode: `ALPHA-${auth}-${number}`,
    dateApproval: new Date().toISOString(),
    installments: 1,
    paymentMethodName: 'Visa',
    approvedBy: 'alpha',
    providerId: 'alpha',
    requestID: number,
    authNumber: auth,
    referenceNumber: number,
    acquirer: 'alpha',
    voucher: null,
    lastFourDigits: '4242',
    serviceReferenceId: number,
  };
}

/**
 * The transaction object's keys and values from a row, as server/src/modules/transactions/transaction-object.ts builds
 * them (this process runs plain JavaScript and cannot import it; its size and shape are what matter here), with the
 * token and payments the service reads beside it.
 * @param {Record<string, any>} row
 * @param {{ token?: string, payments?: object[] }} [also]
 */
function transactionOf(row, { token, payments = [] } = {}) {
  const iso = (/** @type {Date | null} */ at) => (at ? new Date(at).toISOString() : null);
  const base = 'http://127.0.0.1:8080';
  const links = { iOSLink: `svcpay://pay/${row.link_id}`, androidLink: `svcpay://pay/${row.link_id}`, qrURL: `${base}/pay/${row.link_id}` };
  const cents = Number(row.amount_cents);
  const authorized = Number(row.authorized_cents);
  const captured = Number(row.captured_cents);
  const available = authorized - captured - Number(row.released_cents) - Number(row.capture_pending_cents);
  return {
    id: row.id,
    TransactionNumber: row.transaction_number,
    date: iso(row.created_at),
    amount: cents / 100,
    amountCents: cents,
    currency: row.currency,
    status: row.status,
    statusName: row.status === 1 ? 'Pending' : row.status === 5 ? 'Authorized' : 'Captured',
    methodType: row.method_type,
    pos: row.pos,
    posReceiptsEndpoint: `${base}/transactions/${row.transaction_number}/receipt`,
    posData: row.pos_data,
    businessName: 'Bench rows reference',
    businessId: 1,
    timeoutDate: iso(row.timeout_at),
    paymentMethodData: { PaymentType: row.payment_type, directAppLinks: links },
    SMS: row.sms_state,
    paymentCommit: { messsage: 'Commit not required', isPaymentCommitted: true, secondsToCommit: 0, commitLink: null },
    products: row.products,
    productSumMismatch: row.product_sum_mismatch,
    confirmations: row.confirmation ? [row.confirmation] : [],
    confirmation: row.confirmation,
    transactionPage: links,
    balance: row.auth_status ? available / 100 : 0,
    paymentDetails: token ? { type: 'authorization', token } : null,
    authorization: row.auth_status
      ? {
          status: row.auth_status,
          authorizedCents: authorized,
          capturedCents: captured,
          releasedCents: Number(row.released_cents),
          availableCents: available,
          expiresAt: iso(row.hold_expires_at),
          processor: row.processor,
          supportsCloseAuth: row.supports_close_auth,
        }
      : null,
    payments,
    sequence: row.sequence,
    updatedAt: iso(row.updated_at),
    createdAt: iso(row.created_at),
  };
}

/**
 * @param {import('postgres').Sql} sql
 * @param {string | undefined} merchantId
 */
export function serviceRowsSteps(sql, merchantId) {
  if (!/^[0-9a-f-]{36}$/.test(merchantId ?? '')) throw new Error('REF_ROWS=service needs REF_MERCHANT_ID, the id of a merchant in the database');

  /**
   * The event with the transaction object as its payload, the merchant's events it sends (`merchant_events`, what
   * `GET /events` lists: none at creation, `transaction.updated` and the new status's event after) and its row in the
   * realtime outbox (`event_publications`, the notice the update bus carries), one statement a row, as the service's
   * event statement writes them. The notice is published after the commit (`published`).
   */
  const event = async (tx, row, type, merchantEvents, also) => {
    const transaction = transactionOf(row, also);
    const eventId = randomUUID();
    const at = new Date();
    await tx`insert into transaction_events (id, transaction_id, merchant_id, sequence, type, payload, created_at)
      values (${eventId}, ${row.id}, ${row.merchant_id}, ${row.sequence}, ${type}, ${JSON.stringify(transaction)}, ${at})`;
    for (const kind of merchantEvents)
      await tx`insert into merchant_events (merchant_id, type, transaction_id, transaction_event_id, created_at)
        values (${row.merchant_id}, ${kind}, ${row.id}, ${eventId}, ${at})`;
    const notice = JSON.stringify({
      eventId,
      transactionId: row.id,
      transactionNumber: row.transaction_number,
      merchantId: row.merchant_id,
      branchId: row.branch_id ?? null,
      deviceId: row.device_id ?? null,
      sequence: row.sequence,
      callback: false,
    });
    await tx`insert into event_publications (event_id, merchant_id, notice) values (${eventId}, ${row.merchant_id}, ${notice})`;
    return { transaction, publication: { eventId, notice } };
  };
  /**
   * After the commit, as the service's outbox publisher does on the postgres bus and without the answer waiting for it:
   * the NOTIFY, then the outbox row's delete, each a statement (and a commit) of its own.
   * @param {{ transaction: object, publication: { eventId: string, notice: string } }} recorded
   */
  const published = ({ transaction, publication }) => {
    sql`select pg_notify(${NOTICE_CHANNEL}, ${publication.notice})`
      .then(() => sql`delete from event_publications where event_id = ${publication.eventId}`)
      .catch((/** @type {unknown} */ error) => console.error('reference rows: publishing failed', error));
    return transaction;
  };
  /** The merchant's processor account (none for the bench's merchant: the default account), read once a request that needs it. */
  const account = (db) => db`select * from processor_accounts where merchant_id = ${merchantId}`;
  const request = (tx, row, operation, reference, details) =>
    tx`insert into processor_requests (request_key, transaction_id, merchant_id, operation, processor_reference, amount_cents, currency, details, lease_expires_at, created_at)
       values (${`prq_${hex(16)}`}, ${row.id}, ${row.merchant_id}, ${operation}, ${reference}, ${row.amount_cents}, ${row.currency}, ${sql.json(details)},
         now() + interval '1 minute', now())
       returning id`;
  const done = (tx, requestId, answer) =>
    tx`update processor_requests set state = 'done', outcome = 'approved', response_status = 200, response_body = ${JSON.stringify(answer)}, completed_at = now()
       where id = ${requestId}`;
  /**
   * Two transactions, as the service commits a payment's request before the processor is called and its outcome
   * after, with what runs between them (`between`: the account read before the call).
   */
  const twoTransactions = async (claim, record, between) => {
    const claimed = await sql.begin(claim);
    if (!claimed) return undefined;
    if (between) await between();
    return sql.begin((tx) => record(tx, claimed));
  };
  const requestDetails = () => ({ requestId: randomUUID() });

  return {
    /** @param {string | undefined} _id */
    init: async (_id) =>
      published(
        await sql.begin(async (tx) => {
          await account(tx);
          const [row] =
            await tx`insert into transactions (transaction_number, merchant_id, method_type, status, currency, amount_cents, link_id, timeout_at, created_at, updated_at)
            values (${hex(8).toUpperCase()}, ${merchantId}, 'authorize', 1, 'USD', 1000, ${hex(16)}, now() + interval '1 hour', now(), now()) returning *`;
          // A pending transaction's status sends no merchant event.
          return event(tx, row, 'transaction.created', []);
        }),
      ),
    /**
     * The consumer's card attempt (modules/card-testing) is written pending in a transaction of its own before the
     * payment's, with the claim of its two windows (the link's and the client address's, upserted), and deleted in the
     * transaction that records the approval, as the service does; its counts are guards, not rows.
     * @param {string} id
     */
    pay: async (id) => {
      const subject = `link:${id}`;
      const attempt = await sql.begin(async (tx) => {
        await tx`insert into card_attempt_windows (key, claimed_at) values (${`subject ${subject}`}, now())
          on conflict (key) do update set claimed_at = excluded.claimed_at`;
        await tx`insert into card_attempt_windows (key, claimed_at) values ('address 127.0.0.1', now())
          on conflict (key) do update set claimed_at = excluded.claimed_at`;
        const [inserted] = await tx`insert into card_attempts (subject, client_address, attempted_at) values (${subject}, '127.0.0.1', now()) returning id`;
        return inserted;
      });
      const paid = await twoTransactions(
        async (tx) => {
          const [row] = await tx`update transactions set consumer_payment_since = now() where id = ${id} returning *`;
          if (!row) return undefined;
          const [req] = await request(tx, row, 'authorize', null, { ...requestDetails(), consumerPaymentSince: new Date().toISOString() });
          return { requestId: req.id };
        },
        async (tx, claimed) => {
          const confirmation = confirmationOf();
          const [row] = await tx`update transactions set status = 5, payment_type = 'card', auth_status = 'active', authorized_cents = amount_cents,
              hold_expires_at = now() + interval '7 days', processor = 'alpha', supports_close_auth = true, confirmation = ${sql.json(confirmation)},
              consumer_payment_since = null, sequence = sequence + 1, updated_at = now()
            where id = ${id} returning *`;
          const token = `auth_${hex(16)}`;
          await tx`insert into payment_tokens (token, type, merchant_id, transaction_id, processor, processor_reference, payment_method, last_four_digits, created_at)
            values (${token}, 'authorization', ${row.merchant_id}, ${row.id}, 'alpha', ${`sbx_alpha_${hex(12)}`}, 'card', '4242', now())`;
          const recorded = await event(tx, row, 'transaction.updated', ['transaction.updated', 'transaction.approved'], { token });
          // The link's state, which the consumer's page is answered.
          const { TransactionNumber, amount, amountCents, currency, businessName, products, methodType, status, statusName, timeoutDate } =
            recorded.transaction;
          const linkState = { TransactionNumber, amount, amountCents, currency, businessName, products, methodType, status, statusName, timeoutDate };
          await tx`delete from card_attempts where id = ${attempt.id}`;
          await done(tx, claimed.requestId, { ...linkState, payable: false, lastFourDigits: '4242', confirmationNumber: confirmation.confirmationNumber });
          return recorded;
        },
        () => account(sql),
      );
      // No payment recorded (the link was not payable): the attempt is deleted by itself, as the service does.
      if (!paid) {
        await sql`delete from card_attempts where id = ${attempt.id}`;
        return undefined;
      }
      return published(paid);
    },
    /** @param {string} id */
    status: async (id) => {
      const [row] = await sql`select * from transactions where id = ${id}`;
      return row && transactionOf(row);
    },
    /** @param {string} id */
    capture: async (id) => {
      const captured = await twoTransactions(
        async (tx) => {
          await account(tx);
          const [row] = await tx`update transactions set capture_pending_cents = capture_pending_cents + 1000 where id = ${id} returning *`;
          if (!row) return undefined;
          const [req] = await request(tx, row, 'capture', `sbx_alpha_${hex(12)}`, requestDetails());
          return { requestId: req.id };
        },
        async (tx, reserved) => {
          const [row] = await tx`update transactions set captured_cents = captured_cents + 1000, capture_pending_cents = capture_pending_cents - 1000,
              status = 7, auth_status = 'captured', sequence = sequence + 1, updated_at = now()
            where id = ${id} returning *`;
          const payment = { paymentId: `pay_${hex(12)}`, amountCents: 1000, status: 'succeeded', date: new Date().toISOString(), confirmationNumber: digits() };
          await tx`insert into payments (payment_id, transaction_id, merchant_id, kind, amount_cents, status, confirmation_number, created_at)
            values (${payment.paymentId}, ${row.id}, ${row.merchant_id}, 'capture', 1000, 'succeeded', ${payment.confirmationNumber}, now())`;
          const recorded = await event(tx, row, 'transaction.updated', ['transaction.updated', 'transaction.captured'], {
            token: `auth_${hex(16)}`,
            payments: [payment],
          });
          await done(tx, reserved.requestId, { payment, transaction: recorded.transaction });
          return recorded;
        },
      );
      return captured && published(captured);
    },
  };
}
