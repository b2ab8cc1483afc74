/**
 * Test support: localstripe (an independent emulation of Stripe's API) from the shared test peers, started by the
 * tests that need it on a free port. The peers are found through $SVC_PEERS_DIR, or a `shared/peers` folder beside
 * the repository or any folder above it; without them (or without Debian's python3-aiohttp and python3-dateutil) the
 * tests skip, saying why in one printed line.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { peersDir } from './peers';

/** localstripe's start script, or why it cannot run here (printed once by the tests that skip). */
function localstripeScript(): { script: string } | { missing: string } {
  const dir = peersDir();
  const script = dir ? path.join(dir, 'localstripe', 'run') : null;
  if (!script || !existsSync(script)) return { missing: 'the localstripe test peer (shared/peers/localstripe, or $SVC_PEERS_DIR) is not here' };
  const python = spawnSync('/usr/bin/python3', ['-c', 'import aiohttp, dateutil'], { stdio: 'ignore' });
  if (python.status !== 0)
    return { missing: "localstripe needs Debian's python3-aiohttp and python3-dateutil (apt-get install -y python3-aiohttp python3-dateutil)" };
  return { script };
}

const found = localstripeScript();

/** Why localstripe cannot run here, or null when it can (the benchmark says it in its report). */
export function localstripeMissing(): string | null {
  return 'missing' in found ? found.missing : null;
}

/** Whether localstripe can run here; when not, prints why (the caller skips its tests). */
export function localstripeAvailable(): boolean {
  if ('missing' in found) {
    console.log(`skipping the tests on localstripe: ${found.missing}`);
    return false;
  }
  return true;
}

export interface Localstripe {
  /** Its base URL, for STRIPE_API_BASE. */
  url: string;
  stop(): Promise<void>;
}

/** Starts a localstripe of its own on a free loopback port; resolves once it listens. */
export async function startLocalstripe(): Promise<Localstripe> {
  if ('missing' in found) throw new Error(found.missing);
  const port = await freePort();
  const child: ChildProcess = spawn(found.script, [String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('localstripe on ')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`localstripe stopped (exit ${code}): ${stderr}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  // It prints its line just before it listens: the first answer (any status) is the sign it does.
  for (;;) {
    const answered = await fetch(`${url}/v1/balance`).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (child.exitCode !== null) throw new Error(`localstripe stopped: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
