import { existsSync } from 'node:fs';
import path from 'node:path';
import { peersDir } from '../../../scripts/test-peers.mjs';

/**
 * The folder of real test peers (`shared/peers`: localstripe, Adyen's published API descriptions): `$SVC_PEERS_DIR`, or
 * a `shared/peers` folder beside the repository's root or any folder above it (`scripts/test-peers.mjs`, which the
 * end-to-end suite uses too). Null when there is none: a test that needs one skips, saying so.
 */
export { peersDir };

/** One peer's folder (`adyen`, `localstripe`), or null with a printed line saying which tests skip and why. */
export function peer(name: string, skipping: string): string | null {
  const root = peersDir();
  const dir = root && path.join(root, name);
  if (dir && existsSync(dir)) return dir;
  console.log(`skipping ${skipping}: no shared/peers/${name} folder (set SVC_PEERS_DIR to the peers folder)`);
  return null;
}
