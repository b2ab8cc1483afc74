// Where the benchmarked servers keep their data: a fresh database per server on the local PostgreSQL at
// 127.0.0.1:5432 (dropped at the end), or, when nothing answers there, the server's own embedded PostgreSQL in a
// temporary DATA_DIR (removed at the end), exactly as `pnpm start` would run it.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { HARNESS_APPLICATION } from './cpu-usage.mjs';

export const LOCAL_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** Opens a harness connection (never the server's pool); notices are dropped. */
export function connect(url, max = 2) {
  return postgres(url, { max, onnotice: () => undefined, connect_timeout: 5, idle_timeout: 30, connection: { application_name: HARNESS_APPLICATION } });
}

/** True when the local PostgreSQL answers as user postgres. */
export async function localPostgresAnswers() {
  const sql = postgres(LOCAL_ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => undefined });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => undefined);
  }
}

export const runId = randomBytes(4).toString('hex');

/** Creates database `name` through `adminUrl` (a connection that may), dropping one left by an earlier run first. */
export async function createDatabase(adminUrl, name) {
  const admin = connect(adminUrl, 1);
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 2 });
  }
}

/** Drops database `name` through `adminUrl`, its connections ended first. */
export async function dropDatabase(adminUrl, name) {
  const admin = connect(adminUrl, 1);
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end({ timeout: 2 });
  }
}

/**
 * A place for one server's data. `serverEnv` goes into the server's environment; `url()` is the harness's own way
 * in (for the embedded cluster it exists only while the server runs); `dispose()` removes everything.
 */
export async function createStore(kind, label) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `svc-bench-${label}-`));
  // mkdtemp makes it 0700; run as root, the embedded cluster is created by an unprivileged user that must get in.
  await fs.chmod(dataDir, 0o755);
  if (kind === 'local') {
    const name = `svc_bench_${runId}_${label}`;
    await createDatabase(LOCAL_ADMIN_URL, name);
    const url = `postgres://postgres@127.0.0.1:5432/${name}`;
    return {
      kind,
      label,
      dataDir,
      serverEnv: { DATABASE_URL: url, DATA_DIR: dataDir },
      url: () => url,
      async dispose() {
        await dropDatabase(LOCAL_ADMIN_URL, name);
        await fs.rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  return {
    kind,
    label,
    dataDir,
    serverEnv: { DATABASE_URL: undefined, DATA_DIR: dataDir },
    url: () => embeddedUrl(dataDir),
    async dispose() {
      // The server stops the cluster it owns on a graceful stop; after a SIGKILL the postmaster is left: stop it.
      const running = runningPostmaster(dataDir);
      if (running) {
        process.kill(running.pid, 'SIGINT');
        for (let i = 0; i < 100 && isAlive(running.pid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

function runningPostmaster(dataDir) {
  try {
    const lines = readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? { pid, port } : null;
  } catch {
    return null;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The embedded cluster's URL, read from the files the server keeps in DATA_DIR (see server/src/db/embedded.ts). */
function embeddedUrl(dataDir) {
  const running = runningPostmaster(dataDir);
  if (!running) throw new Error(`no embedded PostgreSQL runs in ${dataDir}`);
  const { user, password } = JSON.parse(readFileSync(path.join(dataDir, 'postgres.json'), 'utf8'));
  return `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${running.port}/postgres`;
}

/** "PostgreSQL 15.20" from `select version()`. */
export async function postgresVersion(url) {
  const sql = connect(url, 1);
  try {
    const [row] = await sql`select current_setting('server_version') as v`;
    return `PostgreSQL ${row.v}`;
  } finally {
    await sql.end({ timeout: 2 });
  }
}
