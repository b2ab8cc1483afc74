import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { freePort } from '../db/embedded';
import { testHarnessEnvironment } from '../env';

/** Debian's PgBouncer (`apt-get install pgbouncer`), or one on PATH; undefined when there is none. */
export const PGBOUNCER_BINARY = [
  '/usr/sbin/pgbouncer',
  ...testHarnessEnvironment()
    .path.split(path.delimiter)
    .map((dir) => path.join(dir, 'pgbouncer')),
].find((file) => existsSync(file));

export interface PgBouncer {
  port: number;
  /** `url` (a database on the server behind the pooler) through the pooler. */
  through(url: string): string;
  /** Transactions the pooler passed to `database`, from its admin console (SHOW STATS). */
  transactionsTo(database: string): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A PgBouncer in transaction mode in front of the PostgreSQL server `serverUrl` names, every database of it (`*`), on
 * a free loopback port. Clients are trusted; it logs in to PostgreSQL with the URL's user and password. As the service
 * must be configured behind one (docs/operating.md#connection-poolers): the timeouts the service sends as startup
 * parameters are dropped.
 */
export async function startPgBouncer(serverUrl: string, { poolSize = 4, maxClients = 100 } = {}): Promise<PgBouncer> {
  if (!PGBOUNCER_BINARY) throw new Error('no pgbouncer on PATH or at /usr/sbin/pgbouncer (Debian: apt-get install pgbouncer)');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-pgbouncer-'));
  const port = await freePort();
  const target = new URL(serverUrl);
  const user = decodeURIComponent(target.username);
  await fs.writeFile(path.join(dir, 'userlist.txt'), `"${user}" "${decodeURIComponent(target.password)}"\n`);
  await fs.writeFile(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      `max_client_conn = ${maxClients}`,
      // PgBouncer passes on only the startup parameters it knows; these the service sets are dropped (set them on the role).
      'ignore_startup_parameters = statement_timeout,idle_in_transaction_session_timeout',
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: when the tests do, it drops to `nobody`, which must read its files.
  const root = process.getuid?.() === 0;
  if (root) await fs.chmod(dir, 0o777);
  const child: ChildProcess = spawn(PGBOUNCER_BINARY, [...(root ? ['-u', 'nobody'] : []), path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
  const through = (url: string) => {
    const pooled = new URL(url);
    pooled.hostname = '127.0.0.1';
    pooled.port = String(port);
    return pooled.toString();
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await fs.rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!(await answers(through(serverUrl)))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = await fs.readFile(path.join(dir, 'pgbouncer.log'), 'utf8').catch(() => '');
      await stop();
      throw new Error(`pgbouncer did not start: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    through,
    stop,
    transactionsTo: async (database) => {
      const admin = new URL(through(serverUrl));
      admin.pathname = '/pgbouncer';
      const sql = postgres(admin.toString(), { max: 1, prepare: false, fetch_types: false, onnotice: () => undefined });
      try {
        const rows = await sql.unsafe<{ database: string; total_xact_count: string }[]>('SHOW STATS').simple();
        return Number(rows.find((row) => row.database === database)?.total_xact_count ?? 0);
      } finally {
        await sql.end({ timeout: 1 });
      }
    },
  };
}

async function answers(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, prepare: false, connect_timeout: 2, onnotice: () => undefined });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}
