import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../env';

/**
 * The folder of real test peers (`shared/peers`: localstripe, Adyen's published API descriptions): `$SVC_PEERS_DIR`, or
 * a `shared/peers` folder beside the repository's root or any folder above it. Null when there is none: a test that
 * needs one skips, saying so.
 */
export function peersDir(): string | null {
  const fromEnv = process.env.SVC_PEERS_DIR;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  for (let dir = REPO_ROOT; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'peers');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/** One peer's folder (`adyen`, `localstripe`), or null with a printed line saying which tests skip and why. */
export function peer(name: string, skipping: string): string | null {
  const root = peersDir();
  const dir = root && path.join(root, name);
  if (dir && existsSync(dir)) return dir;
  console.log(`skipping ${skipping}: no shared/peers/${name} folder (set SVC_PEERS_DIR to the peers folder)`);
  return null;
}
