/**
 * Test support: localstripe (an independent emulation of Stripe's API) from the shared test peers, started by the
 * tests that need it on a free port (`scripts/test-peers.mjs`, shared with the end-to-end project `stripe`). The peers
 * are found through $SVC_PEERS_DIR, or a `shared/peers` folder beside the repository or any folder above it; without
 * them (or without Debian's python3-aiohttp and python3-dateutil) the tests skip, saying why in one printed line.
 */
import { localstripeMissing, startLocalstripe, type Localstripe } from '../../../scripts/test-peers.mjs';

export { startLocalstripe, type Localstripe };

const missing = localstripeMissing();

/** Whether localstripe can run here; when not, prints why (the caller skips its tests). */
export function localstripeAvailable(): boolean {
  if (missing) {
    console.log(`skipping the tests on localstripe: ${missing}`);
    return false;
  }
  return true;
}
