import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';

// A system Chromium (Playwright cannot download its own browser here): CHROMIUM_PATH, else Debian's and the other
// usual places; an empty CHROMIUM_PATH uses Playwright's own browser where one is installed.
const executablePath = chromiumPath();

export default defineConfig({
  testDir: 'tests',
  globalSetup: './fixtures/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // One worker: the specs share one service and its sandbox clock, which a spec moves.
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
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    {
      name: 'phone',
      use: {
        viewport: { width: 360, height: 780 },
        deviceScaleFactor: 3,
        isMobile: true,
        hasTouch: true,
        userAgent: devices['Pixel 5'].userAgent,
      },
    },
  ],
});
