// The headless Chromium of metric 10: the system's (CHROMIUM_PATH, else the usual places, as the browser suites find
// it), launched by playwright-core with a new empty profile, on a closed network: no background requests, no
// component updates, no sync, no QUIC, no GPU. Each run then gets a fresh browser context (its own cache, cookies
// and connections: a cold load).
import { chromiumPath, isExecutable } from '../../scripts/chromium.mjs';

export const CHROMIUM_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-gpu',
];

/**
 * The Chromium to launch, or why there is none (the metric is then reported as not measured).
 * @returns {{ path: string } | { reason: string }}
 */
export function findChromium(env = process.env) {
  const found = chromiumPath(env);
  if (found === undefined) return { reason: "CHROMIUM_PATH is empty (Playwright's own browser), which the bench does not use: set it to a Chromium" };
  if (found === null) return { reason: "no Chromium found (set CHROMIUM_PATH, or install Debian's chromium)" };
  if (!isExecutable(found)) return { reason: `no executable Chromium at ${found} (CHROMIUM_PATH)` };
  return { path: found };
}

/** Launches the Chromium found; `--no-sandbox` when running as root (it refuses to start otherwise). */
export async function launchChromium(executablePath) {
  const { chromium } = await import('playwright-core');
  const args = [...CHROMIUM_FLAGS];
  if (process.getuid?.() === 0) args.unshift('--no-sandbox');
  return chromium.launch({ executablePath, headless: true, args, timeout: 60_000 });
}
