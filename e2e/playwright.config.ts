import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';

// A system Chromium (Playwright cannot download its own browser here): CHROMIUM_PATH, else Debian's and the other
// usual places; an empty CHROMIUM_PATH uses Playwright's own browser where one is installed.
const executablePath = chromiumPath();

/**
 * What a consumer does on a phone at the shop: its checkouts, the payment link, the counter's sticker, and every shop
 * page's layout. The merchant's back office and the service's own pages (which size themselves in their specs) run on
 * the desktop project only.
 */
const PHONE_FLOWS = [
  '**/card-checkout.spec.ts',
  '**/languages-checkout.spec.ts',
  '**/express-checkout.spec.ts',
  '**/payment-link.spec.ts',
  '**/pos-sticker.spec.ts',
  '**/shop-pages.spec.ts',
];

/** The specs of the `stripe` project: the demo shop on the Stripe connector, against localstripe (`fixtures/stripe.ts`). */
const STRIPE_FLOWS = '**/stripe-*.spec.ts';

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
    { name: 'desktop', testIgnore: STRIPE_FLOWS, use: { viewport: { width: 1280, height: 800 } } },
    {
      name: 'phone',
      testMatch: PHONE_FLOWS,
      use: {
        viewport: { width: 360, height: 780 },
        deviceScaleFactor: 3,
        isMobile: true,
        hasTouch: true,
        userAgent: devices['Pixel 5'].userAgent,
      },
    },
    // The service on the Stripe connector: its specs start a stack of their own, with localstripe (skipped without it).
    { name: 'stripe', testMatch: STRIPE_FLOWS, use: { viewport: { width: 1280, height: 800 } } },
  ],
});
