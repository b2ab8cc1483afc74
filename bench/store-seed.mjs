// Fills a store with `count` finished transactions in a few INSERT … SELECT statements: each is a copy of one
// real transaction that went through the whole lifecycle over HTTP (init, consumer payment, capture), so the rows
// are exactly what the service writes: the transaction, its payment token, its capture payment and its events
// (with the real payload, ~2 KB each). Only identifiers, numbers and times differ: random transaction numbers and
// link ids (so the unique indexes grow the way random keys grow them) and creation times spread over 30 days.

/** Columns of `table` in order, so that rows can be copied with some columns replaced. */
async function columnsOf(sql, table) {
  const rows = await sql`select column_name from information_schema.columns where table_schema = 'public' and table_name = ${table} order by ordinal_position`;
  return rows.map((r) => r.column_name);
}

/** `insert into table (cols) select <override or s.col> from <from>` with `s` the template row alias. */
async function copyStatement(sql, table, overrides, from) {
  const columns = await columnsOf(sql, table);
  const values = columns.map((c) => overrides[c] ?? `s."${c}"`);
  return `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) select ${values.join(', ')} from ${from}`;
}

export async function seedFinishedTransactions(sql, templateTransactionNumber, count) {
  await sql.begin(async (tx) => {
    const [template] = await tx`select id from transactions where transaction_number = ${templateTransactionNumber}`;
    if (!template) throw new Error(`template transaction ${templateTransactionNumber} not found`);
    await tx.unsafe(`
      create temporary table bench_seed on commit drop as
      select gen_random_uuid() as id,
             upper(substr(md5(random()::text || i::text), 1, 16)) as number,
             replace(gen_random_uuid()::text, '-', '') as link_id,
             now() - random() * interval '30 days' as at
      from generate_series(1, ${Number(count)}) as i`);
    const t = `'${template.id}'::uuid`;
    await tx.unsafe(
      await copyStatement(
        tx,
        'transactions',
        { id: 'g.id', transaction_number: 'g.number', link_id: 'g.link_id', created_at: 'g.at', updated_at: 'g.at' },
        `bench_seed g cross join transactions s where s.id = ${t}`,
      ),
    );
    await tx.unsafe(
      await copyStatement(
        tx,
        'payment_tokens',
        { id: 'gen_random_uuid()', token: `'auth_' || md5(g.id::text)`, transaction_id: 'g.id', created_at: 'g.at' },
        `bench_seed g cross join payment_tokens s where s.transaction_id = ${t}`,
      ),
    );
    await tx.unsafe(
      await copyStatement(
        tx,
        'payments',
        { id: 'gen_random_uuid()', payment_id: `'pay_' || substr(md5(g.id::text || s.id::text), 1, 24)`, transaction_id: 'g.id', created_at: 'g.at' },
        `bench_seed g cross join payments s where s.transaction_id = ${t}`,
      ),
    );
    await tx.unsafe(
      await copyStatement(
        tx,
        'transaction_events',
        { id: 'gen_random_uuid()', transaction_id: 'g.id', payload: `replace(s.payload, '${templateTransactionNumber}', g.number)`, created_at: 'g.at' },
        `bench_seed g cross join transaction_events s where s.transaction_id = ${t}`,
      ),
    );
  });
  // What autovacuum would do soon after a bulk load: fresh planner statistics.
  await sql`analyze`;
  const [row] = await sql`select (select count(*) from transactions)::int as transactions, (select count(*) from transaction_events)::int as events`;
  return row;
}
