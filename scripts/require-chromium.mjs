#!/usr/bin/env node
// The browser suites need Chromium. Playwright cannot download its own browser on every machine (not here), so the
// suites use Debian's /usr/bin/chromium or the one CHROMIUM_PATH names. Say so clearly instead of a stack trace.
import { accessSync, constants } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (path === '') process.exit(0); // an empty CHROMIUM_PATH: Playwright's own browser, where it is installed
try {
  accessSync(path, constants.X_OK);
} catch {
  process.stderr.write(
    `No Chromium at ${path}. Install Debian's (sudo apt-get install -y chromium), set CHROMIUM_PATH to another ` +
      'Chromium, or set CHROMIUM_PATH= (empty) to use the browser "npx playwright install chromium" put in place.\n',
  );
  process.exit(1);
}
