// The reference: the floor our stack can reach. A minimal Express 5 + postgres.js server with the same four calls
// as a lifecycle sequence, where each call does, in one database transaction, exactly as many single-row writes as
// the service's request of that step was measured to do (REF_WRITES; a list: that many transactions), and nothing else: no authentication, no
// validation, no reads before writing, no events or notifications. A step with no writes (the status read) reads
// its one row by primary key. Started as its own process: REF_DATABASE_URL, REF_SOCKET_PATH (PostgreSQL's Unix socket,
// when the service uses it for the same URL), REF_PORT, REF_WRITES (JSON). REF_ROWS=service (with REF_MERCHANT_ID)
// writes the service's own rows instead: reference-rows.mjs.
import express from 'express';
import postgres from 'postgres';
import { REFERENCE_APPLICATION, REFERENCE_ROWS_APPLICATION } from './cpu-usage.mjs';
import { serviceRowsSteps } from './reference-rows.mjs';

const writes = JSON.parse(process.env.REF_WRITES ?? '{}');
const sql = postgres(process.env.REF_DATABASE_URL ?? '', {
  ...(process.env.REF_SOCKET_PATH ? { path: process.env.REF_SOCKET_PATH } : {}),
  max: Number(process.env.REF_POOL_MAX ?? 10),
  onnotice: () => undefined,
  // So that the harness can tell its database backends apart (bench/cpu-usage.mjs).
  connection: { application_name: process.env.REF_ROWS === 'service' ? REFERENCE_ROWS_APPLICATION : REFERENCE_APPLICATION },
});

await sql.unsafe(`
  create schema if not exists bench_reference;
  create table if not exists bench_reference.items (
    id uuid primary key default gen_random_uuid(),
    state text not null,
    payload text not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  );
  create table if not exists bench_reference.item_log (
    id uuid primary key default gen_random_uuid(),
    item_id uuid not null,
    kind text not null,
    payload text not null,
    created_at timestamptz not null default now()
  );`);

/**
 * `count` single-row writes in one transaction: the item's insert (or update), then log rows. A list of counts is
 * that many transactions one after the other (the service's payment steps commit their processor request before
 * the processor is called, and its outcome after).
 */
async function step(name, id, payload) {
  const count = writes[name];
  if (count === 0) {
    const [row] = await sql`select * from bench_reference.items where id = ${id}`;
    return row;
  }
  if (Array.isArray(count)) {
    if (!count.every((each) => Number.isInteger(each) && each > 0)) throw new Error(`REF_WRITES.${name}: a list holds positive counts`);
    let row;
    for (const each of count) {
      row = await transaction(name, each, id ?? row?.id, payload);
      if (!row) return undefined;
    }
    return row;
  }
  return transaction(name, count, id, payload);
}

async function transaction(name, count, id, payload) {
  return sql.begin(async (tx) => {
    const [row] =
      id === undefined
        ? await tx`insert into bench_reference.items (state, payload) values (${name}, ${payload}) returning *`
        : await tx`update bench_reference.items set state = ${name}, updated_at = now() where id = ${id} returning *`;
    if (!row) return undefined;
    for (let i = 1; i < count; i++) await tx`insert into bench_reference.item_log (item_id, kind, payload) values (${row.id}, ${name}, ${payload})`;
    return row;
  });
}

const app = express();
app.use(express.json());
app.get('/healthz', (_req, res) => res.json({ ok: true }));
const rows = process.env.REF_ROWS === 'service' ? serviceRowsSteps(sql, process.env.REF_MERCHANT_ID) : null;
/** @param {'init' | 'pay' | 'status' | 'capture'} name */
const answer = (name, idOf) => async (req, res) => {
  const body = rows ? await rows[name](idOf(req)) : await step(name, idOf(req), JSON.stringify(req.body ?? {}));
  if (!body) return res.status(404).json({ error: 'not found' });
  res.json(body);
};
app.post(
  '/ref/init',
  answer('init', () => undefined),
);
app.post(
  '/ref/pay/:id',
  answer('pay', (req) => req.params.id),
);
app.get(
  '/ref/items/:id',
  answer('status', (req) => req.params.id),
);
app.post(
  '/ref/capture/:id',
  answer('capture', (req) => req.params.id),
);

const server = app.listen(Number(process.env.REF_PORT), '127.0.0.1');
server.keepAliveTimeout = 65_000;
const stop = () => server.close(() => void sql.end({ timeout: 2 }).then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
