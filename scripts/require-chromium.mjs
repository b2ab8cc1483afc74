#!/usr/bin/env node
// Run before the browser suites: makes sure there is a Chromium to launch. On a Debian or Ubuntu machine where we
// are root (a fresh container, CI) a missing Chromium is installed with apt-get, as `.ci/run` does; anywhere else
// this says what to do instead of letting the suite fail with a stack trace.
import { spawnSync } from 'node:child_process';
import { chromiumPath, isExecutable } from './chromium.mjs';

const found = chromiumPath();
if (found === undefined) process.exit(0); // CHROMIUM_PATH= (empty): Playwright's own browser
if (found !== null && isExecutable(found)) process.exit(0);

const named = process.env.CHROMIUM_PATH !== undefined;
const canInstall = !named && process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
if (canInstall) {
  process.stderr.write("No Chromium found: installing Debian's chromium with apt-get for the browser tests (once)…\n");
  const apt = (args) =>
    spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
  if (!apt(['install', '-y', '-qq', 'chromium']) && apt(['update', '-qq'])) apt(['install', '-y', '-qq', 'chromium']);
  const installed = chromiumPath();
  if (installed && isExecutable(installed)) process.exit(0);
}
process.stderr.write(
  `No Chromium at ${found ?? 'any of the usual places'}. Install Debian's (sudo apt-get install -y chromium), set ` +
    'CHROMIUM_PATH to another Chromium, or set CHROMIUM_PATH= (empty) to use the browser "npx playwright install ' +
    'chromium" put in place.\n',
);
process.exit(1);
