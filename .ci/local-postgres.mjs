// Prints a DATABASE_URL for the machine's PostgreSQL when one answers on 127.0.0.1:5432 and may create
// databases (the tests create one per file); prints nothing otherwise, and the tests start an embedded one.
import postgres from 'postgres';

const candidates = ['postgres://postgres@127.0.0.1:5432/postgres', `postgres://${process.env.USER || 'root'}@127.0.0.1:5432/postgres`];
for (const url of candidates) {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => undefined });
  try {
    const [row] = await sql`select rolcreatedb or rolsuper as can_create from pg_roles where rolname = current_user`;
    if (row?.can_create) {
      process.stdout.write(url);
      await sql.end();
      process.exit(0);
    }
  } catch {
    // not this one
  }
  await sql.end({ timeout: 1 }).catch(() => undefined);
}
