import { defineConfig } from '@playwright/test';

// Debian's Chromium by default (Playwright cannot download its own browser here); CHROMIUM_PATH overrides it, and
// an empty CHROMIUM_PATH uses Playwright's own browser where one is installed.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = process.getuid?.() === 0;

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
      args: [...(root ? ['--no-sandbox'] : []), '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-gpu'],
    },
  },
});
