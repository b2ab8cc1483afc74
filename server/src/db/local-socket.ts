import { statSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { isMultiHost } from './database-url';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/** How long the look for a socket may take at start-up before the pool keeps TCP. */
const CHECK_TIMEOUT_S = 2;

interface ServerIdentity {
  started: string;
  port: string;
  dirs: string;
}

const identityQuery = `select pg_postmaster_start_time()::text as started, current_setting('port') as port,
  current_setting('unix_socket_directories') as dirs`;

/**
 * The Unix socket of the PostgreSQL server a loopback DATABASE_URL names, when this host can reach that same server
 * through it; null otherwise (the pool then keeps TCP). A statement over loopback TCP costs the server a `write` through
 * the TCP stack and PostgreSQL the same on its side; over a Unix socket both are cheaper (bench/findings.md, lifecycle).
 *
 * The server says where its sockets are (`unix_socket_directories`) and on which port it listens; the socket is used
 * only when the URL's port is that port (anything else is a proxy or a forwarded port, which the socket would bypass),
 * a connection through it logs in with the URL's user, password and database, and the server behind it is the one
 * behind the URL (the same postmaster start time, to the microsecond). Not when the URL asks for TLS. Any failure, at
 * any step, keeps TCP.
 */
export async function localSocketPath(url: string): Promise<string | null> {
  // Several hosts (a primary and its standbys): the driver picks one at every connection, a socket would pin one.
  if (isMultiHost(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!LOOPBACK_HOSTS.has(parsed.hostname) || ['host', 'ssl', 'sslmode'].some((name) => parsed.searchParams.has(name))) return null;
  const urlPort = parsed.port || '5432';

  const overTcp = await identityOf(url, {});
  if (!overTcp || overTcp.port !== urlPort) return null;
  for (const dir of socketDirectories(overTcp.dirs)) {
    const socket = path.join(dir, `.s.PGSQL.${overTcp.port}`);
    if (!isSocket(socket)) continue;
    const overSocket = await identityOf(url, { path: socket });
    if (overSocket?.started === overTcp.started) return socket;
  }
  return null;
}

/** The directories of `unix_socket_directories` this process can reach by path (not the abstract namespace's `@…`). */
function socketDirectories(setting: string): string[] {
  return setting
    .split(',')
    .map((dir) => dir.trim())
    .filter((dir) => dir.startsWith('/'));
}

function isSocket(file: string): boolean {
  try {
    return statSync(file).isSocket();
  } catch {
    return false;
  }
}

async function identityOf(url: string, options: { path?: string }): Promise<ServerIdentity | null> {
  const sql = postgres(url, { ...options, max: 1, connect_timeout: CHECK_TIMEOUT_S, idle_timeout: 1, onnotice: () => undefined });
  let timer: NodeJS.Timeout | undefined;
  try {
    const answered = sql.unsafe<ServerIdentity[]>(identityQuery);
    answered.catch(() => undefined); // when the time-out wins, its later failure is not an unhandled rejection
    const [row] = await Promise.race([
      answered,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), CHECK_TIMEOUT_S * 1000);
      }),
    ]);
    return row ?? null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    void sql.end({ timeout: 0 }).catch(() => undefined);
  }
}
