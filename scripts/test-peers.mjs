// The real test peers kept beside the repository (`shared/peers`: localstripe, Adyen's published API descriptions),
// for the server's tests and the end-to-end project `stripe`: found through $SVC_PEERS_DIR, or a `shared/peers` folder
// beside the repository's root or any folder above it. Nothing here is part of the product.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The peers folder, or null when there is none (a test that needs one skips, saying so). */
export function peersDir(env = process.env) {
  if (env.SVC_PEERS_DIR) return existsSync(env.SVC_PEERS_DIR) ? env.SVC_PEERS_DIR : null;
  for (let dir = REPO_ROOT; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'peers');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/** Why localstripe cannot run here (no peer, or Debian's python3-aiohttp and python3-dateutil missing), or null. */
export function localstripeMissing() {
  const dir = peersDir();
  const script = dir ? path.join(dir, 'localstripe', 'run') : null;
  if (!script || !existsSync(script)) return 'the localstripe test peer (shared/peers/localstripe, or $SVC_PEERS_DIR) is not here';
  const python = spawnSync('/usr/bin/python3', ['-c', 'import aiohttp, dateutil'], { stdio: 'ignore' });
  if (python.status !== 0) return "localstripe needs Debian's python3-aiohttp and python3-dateutil (apt-get install -y python3-aiohttp python3-dateutil)";
  return null;
}

/** Starts a localstripe of its own on a free loopback port; resolves once it answers. */
export async function startLocalstripe() {
  const missing = localstripeMissing();
  if (missing) throw new Error(missing);
  const port = await freePort();
  const child = spawn(path.join(peersDir(), 'localstripe', 'run'), [String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
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
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
