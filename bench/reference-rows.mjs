// The reference's second shape (REF_ROWS=service): the same four calls, each writing the rows the service's request
// writes, into the service's own tables (with their columns, indexes, constraints and foreign keys), in as many
// transactions as the service commits, with plain statements and nothing else: no authentication, no validation, no
// guards beyond the row's id, no views, no notifications. It answers an object of the transaction object's size, and
// writes payloads of the size the service writes (an event's payload and a request's kept answer, 2.3 KB each). What
// the service spends beyond this is its code; what this spends beyond the plain reference is the service's data.
import { randomBytes } from 'node:crypto';

/** The size of the service's event payload and kept answer: the transaction object as JSON (bench/findings.md). */
const PAYLOAD_CHARS = 2300;

const hex = (bytes) => randomBytes(bytes).toString('hex');

/** An object of the transaction object's shape and size from a row (its keys and a padding of its own). */
function objectOf(row) {
  const object = {
    id: row.id,
    TransactionNumber: row.transaction_number,
    date: row.created_at,
    amount: Number(row.amount_cents) / 100,
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    status: row.status,
    methodType: row.method_type,
    timeoutDate: row.timeout_at,
    paymentMethodData: { PaymentType: row.payment_type, directAppLinks: { qrURL: `http://127.0.0.1/pay/${row.link_id}` } },
    SMS: row.sms_state,
    authorization: row.auth_status
      ? { status: row.auth_status, authorizedCents: Number(row.authorized_cents), capturedCents: Number(row.captured_cents), expiresAt: row.hold_expires_at }
      : null,
    confirmation: row.confirmation,
    sequence: row.sequence,
    updatedAt: row.updated_at,
    createdAt: row.created_at,
  };
  const text = JSON.stringify(object);
  return { ...object, notes: 'x'.repeat(Math.max(0, PAYLOAD_CHARS - text.length - 12)) };
}

/** @param {import('postgres').Sql} sql */
export function serviceRowsSteps(sql, merchantId) {
  if (!/^[0-9a-f-]{36}$/.test(merchantId ?? '')) throw new Error('REF_ROWS=service needs REF_MERCHANT_ID, the id of a merchant in the database');

  const event = (tx, row, type) =>
    tx`insert into transaction_events (transaction_id, merchant_id, sequence, type, payload, created_at)
       values (${row.id}, ${row.merchant_id}, ${row.sequence}, ${type}, ${JSON.stringify(objectOf(row))}, now())`;
  const request = (tx, row, operation, reference) =>
    tx`insert into processor_requests (request_key, transaction_id, merchant_id, operation, processor_reference, amount_cents, currency, lease_expires_at, created_at)
       values (${`prq_${hex(16)}`}, ${row.id}, ${row.merchant_id}, ${operation}, ${reference}, ${row.amount_cents}, ${row.currency}, now() + interval '1 minute', now())
       returning id`;
  const done = (tx, requestId, row) =>
    tx`update processor_requests set state = 'done', outcome = 'approved', response_status = 200, response_body = ${JSON.stringify(objectOf(row))}, completed_at = now()
       where id = ${requestId}`;

  return {
    init: () =>
      sql.begin(async (tx) => {
        const [row] =
          await tx`insert into transactions (transaction_number, merchant_id, method_type, status, currency, amount_cents, link_id, timeout_at, created_at, updated_at)
          values (${hex(8)}, ${merchantId}, 'authorize', 1, 'USD', 1000, ${hex(12)}, now() + interval '1 hour', now(), now()) returning *`;
        await event(tx, row, 'transaction.created');
        return row;
      }),
    pay: async (id) => {
      const claimed = await sql.begin(async (tx) => {
        const [row] = await tx`update transactions set consumer_payment_since = now() where id = ${id} returning *`;
        if (!row) return undefined;
        const [req] = await request(tx, row, 'authorize', null);
        return { row, requestId: req.id };
      });
      if (!claimed) return undefined;
      return sql.begin(async (tx) => {
        const [row] = await tx`update transactions set status = 5, payment_type = 'card', auth_status = 'active', authorized_cents = amount_cents,
            hold_expires_at = now() + interval '7 days', processor = 'sandbox', processor_reference = ${`ref_${hex(8)}`},
            confirmation = ${sql.json({ confirmationNumber: hex(6), lastFourDigits: '4242' })}, consumer_payment_since = null,
            sequence = sequence + 1, updated_at = now()
          where id = ${id} returning *`;
        await tx`insert into payment_tokens (token, type, merchant_id, transaction_id, processor, processor_reference, payment_method, last_four_digits, created_at)
          values (${`auth_${hex(16)}`}, 'authorization', ${row.merchant_id}, ${row.id}, 'sandbox', ${row.processor_reference}, 'card', '4242', now())`;
        await event(tx, row, 'transaction.updated');
        await done(tx, claimed.requestId, row);
        return row;
      });
    },
    status: async (id) => {
      const [row] = await sql`select * from transactions where id = ${id}`;
      return row;
    },
    capture: async (id) => {
      const reserved = await sql.begin(async (tx) => {
        const [row] = await tx`update transactions set capture_pending_cents = capture_pending_cents + 1000 where id = ${id} returning *`;
        if (!row) return undefined;
        const [req] = await request(tx, row, 'capture', row.processor_reference);
        return { row, requestId: req.id };
      });
      if (!reserved) return undefined;
      return sql.begin(async (tx) => {
        const [row] = await tx`update transactions set captured_cents = captured_cents + 1000, capture_pending_cents = capture_pending_cents - 1000,
            status = 7, auth_status = 'captured', sequence = sequence + 1, updated_at = now()
          where id = ${id} returning *`;
        await tx`insert into payments (payment_id, transaction_id, merchant_id, kind, amount_cents, status, confirmation_number, created_at)
          values (${`pay_${hex(12)}`}, ${row.id}, ${row.merchant_id}, 'capture', 1000, 'approved', ${hex(6)}, now())`;
        await event(tx, row, 'transaction.updated');
        await done(tx, reserved.requestId, row);
        return row;
      });
    },
    answerOf: objectOf,
  };
}
