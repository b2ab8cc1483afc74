// EXPLAIN ANALYZE of the statements the service runs on every lifecycle request and every second (the expiry
// sweeps): their reads and guarded writes with the conditions and indexes the service's have (read off the PostgreSQL
// statement log of a lifecycle), without what only adds rows beside them (the processor request a guarded write
// inserts, the done-write of an event's statement), with parameters taken from a stored transaction. Each runs inside
// a transaction that is rolled back, so nothing changes.

/** The transaction view: one statement with the payments as a JSON column (server transactions.queries.ts). */
const VIEW = `select t.*, m.name, m.business_id, pt.token, pt.type, pt.last_four_digits,
    coalesce((select json_agg(json_build_object('id', p.id, 'paymentId', p.payment_id, 'amountCents', p.amount_cents,
      'status', p.status, 'createdAt', p.created_at) order by p.created_at, p.id)
      from payments p where p.transaction_id = t.id), '[]'::json)
  from transactions t inner join merchants m on m.id = t.merchant_id left join payment_tokens pt on pt.transaction_id = t.id`;

function hotQueries(p, columns) {
  const queries = [
    [
      'credential by key hash (a merchant request, when not cached)',
      `select id, kind, secret_hash, merchant_id, branch_id, device_id, allowed_origins from api_credentials where secret_hash = $1 and revoked_at is null limit 1`,
      [p.secretHash],
    ],
    [
      'link face (pay)',
      `select t.*, m.name, pt.last_four_digits from transactions t inner join merchants m on m.id = t.merchant_id left join payment_tokens pt on pt.transaction_id = t.id where t.link_id = $1 limit 1`,
      [p.linkId],
    ],
    [
      'in-flight mark by link (pay)',
      `update transactions set consumer_payment_since = clock_timestamp()
       where link_id = $1 and method_type in ('sale', 'authorize') and status in (1, 2) and (timeout_at is null or timeout_at > now())
         and (consumer_payment_since is null or consumer_payment_since <= clock_timestamp() - interval '600 seconds'
           and not exists (select 1 from processor_requests r where r.transaction_id = transactions.id
             and r.operation in ('sale', 'authorize') and r.state <> 'done'))
       returning id, merchant_id, method_type, amount_cents, currency`,
      [p.linkId],
    ],
    ['view by id, with payments (every change)', `${VIEW} where t.id = $1 limit 1`, [p.id]],
    ['view by number for the merchant (status)', `${VIEW} where t.transaction_number = $1 and t.merchant_id = $2 limit 1`, [p.number, p.merchantId]],
    [
      'capture reserved by token, the token looked up in it (capture)',
      `update transactions set capture_pending_cents = capture_pending_cents + 100
       where id = (select transaction_id from payment_tokens where token = $1 and merchant_id = $2 and type = 'authorization')
         and case when ($3::text is null or currency = $3::text) and auth_status = 'active' and hold_expires_at > now()
           and authorized_cents - captured_cents - released_cents - capture_pending_cents >= 100 then true else false end
       returning id, merchant_id, currency`,
      [p.token, p.merchantId, null],
    ],
    [
      'event, callback outbox row and realtime outbox row (every change)',
      `with event as (insert into transaction_events (id, transaction_id, merchant_id, sequence, type, payload, created_at)
         values (gen_random_uuid(), $1, $2, 1000, 'transaction.updated', $3, now()) returning id),
       delivery as (insert into callback_deliveries (event_id, transaction_id, merchant_id, sequence, url, method, next_attempt_at, created_at, updated_at)
         select event.id, $1, $2, 1000, 'https://merchant.example/callbacks', 'POST', now(), now(), now() from event),
       publication as (insert into event_publications (event_id, merchant_id, notice) select event.id, $2, '{}' from event)
       select true from event`,
      [p.id, p.merchantId, p.payload],
    ],
    [
      'expiry sweep: link time-outs (every second)',
      `select id from transactions where status = 1 and timeout_at <= now() order by timeout_at limit 200 for update skip locked`,
      [],
    ],
    [
      'expiry sweep: hold expiries (every second)',
      `select id from transactions where auth_status = 'active' and hold_expires_at <= now() and capture_pending_cents = 0 order by hold_expires_at limit 200 for update skip locked`,
      [],
    ],
    [
      'callback claim (dispatcher, every wake)',
      `select id from callback_deliveries where state = 'pending' and next_attempt_at <= now() order by next_attempt_at limit 32 for update skip locked`,
      [],
    ],
  ];
  if (columns.has('commit_deadline')) {
    queries.push([
      'expiry sweep: commit deadlines (every second)',
      `select id from transactions where status = 10 and commit_deadline <= now() order by commit_deadline limit 200 for update skip locked`,
      [],
    ]);
  }
  return queries;
}

/** Parameters from one stored, finished transaction of `merchantId` (chosen at random). */
async function sampleParameters(sql, merchantId) {
  const [row] = await sql`
    select t.id, t.transaction_number as number, t.link_id, t.merchant_id, pt.token,
           (select e.payload from transaction_events e where e.transaction_id = t.id order by e.sequence desc limit 1) as payload,
           (select c.secret_hash from api_credentials c where c.merchant_id = t.merchant_id and c.kind = 'merchant_key' limit 1) as secret_hash
    from transactions t join payment_tokens pt on pt.transaction_id = t.id
    where t.merchant_id = ${merchantId}
    order by random() limit 1`;
  if (!row) throw new Error('no finished transaction to take query parameters from');
  return {
    id: row.id,
    number: row.number,
    linkId: row.link_id,
    merchantId: row.merchant_id,
    token: row.token,
    payload: row.payload,
    secretHash: row.secret_hash,
  };
}

/** `[{ name, executionMs (median of `repeat`), plan (scan nodes) }]` */
export async function explainHotQueries(sql, merchantId, repeat = 5) {
  const p = await sampleParameters(sql, merchantId);
  const columns = new Set((await sql`select column_name from information_schema.columns where table_name = 'transactions'`).map((r) => r.column_name));
  const results = [];
  for (const [name, text, params] of hotQueries(p, columns)) {
    const times = [];
    let plan = [];
    for (let i = 0; i < repeat; i++) {
      await sql
        .begin(async (tx) => {
          const rows = await tx.unsafe(`explain (analyze, buffers, format text) ${text}`, params);
          const lines = rows.map((r) => r['QUERY PLAN']);
          times.push(Number(/Execution Time: ([\d.]+) ms/.exec(lines.join('\n'))?.[1]));
          plan = lines;
          throw new Rollback();
        })
        .catch((error) => {
          if (!(error instanceof Rollback)) throw error;
        });
    }
    times.sort((a, b) => a - b);
    const scans = plan
      .filter((line) => /Scan|Insert on|Update on|Sort|LockRows/.test(line))
      .map((line) =>
        line
          .replace(/^[\s->]+/, '')
          .replace(/\s+\(cost=.*$/, '')
          .trim(),
      );
    results.push({ name, executionMs: times[Math.floor(times.length / 2)], plan: scans.join('; '), full: plan });
  }
  return results;
}

class Rollback extends Error {}
