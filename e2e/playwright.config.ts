import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';

// A system Chromium (Playwright cannot download its own browser here): CHROMIUM_PATH, else Debian's and the other
// usual places; an empty CHROMIUM_PATH uses Playwright's own browser where one is installed.
const executablePath = chromiumPath();

export default defineConfig({
  testDir: 'tests',
  globalSetup: './fixtures/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    trace: 'retain-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: chromiumArgs(),
    },
  },
});
