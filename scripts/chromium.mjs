// Which Chromium the browser suites (Elements component tests, end-to-end specs) launch, and how. Playwright cannot
// download its own browser on every machine (not on ours), so a system Chromium is used: the one CHROMIUM_PATH
// names, else the first of the usual places. An empty CHROMIUM_PATH means Playwright's own browser.
import { accessSync, constants } from 'node:fs';

export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The executable to launch: `undefined` for Playwright's own browser (CHROMIUM_PATH set empty), the CHROMIUM_PATH
 * given (even if missing: the launch then says so), else the first candidate that exists, else null.
 */
export function chromiumPath(env = process.env) {
  if (env.CHROMIUM_PATH === '') return undefined;
  if (env.CHROMIUM_PATH !== undefined) return env.CHROMIUM_PATH;
  return CHROMIUM_CANDIDATES.find(executable) ?? null;
}

export { executable as isExecutable };

/** Flags for a headless Chromium on a closed network; no sandbox when running as root (it refuses to start). */
export function chromiumArgs() {
  const args = ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-gpu'];
  if (process.getuid?.() === 0) args.unshift('--no-sandbox');
  return args;
}
