// The four surfaces of metric 10: what the probe waits for on each (the card number field, in whatever frame; the
// first wallet button for Express), how the shopper pays on it (the sandbox's approving test card, or the wallet's
// sandbox sheet), and what its reference page waits for.
import { TEST_CARD } from './browser-run.mjs';

const CARD_NUMBER = 'input[autocomplete="cc-number"]';

/** @param {import('playwright-core').Page | import('playwright-core').FrameLocator} where */
async function typeCard(where) {
  await where.locator(CARD_NUMBER).fill(TEST_CARD.number);
  await where.locator('input[autocomplete="cc-exp"]').fill(TEST_CARD.expiry);
  await where.locator('input[autocomplete="cc-csc"]').fill(TEST_CARD.cvc);
}

/**
 * @typedef {import('./browser-pages.mjs').Surface} Surface
 * @typedef {{ name: string, targets: import('./browser-probe.mjs').ProbeTargets, referenceTargets: import('./browser-probe.mjs').ProbeTargets,
 *   pay: (page: import('playwright-core').Page) => Promise<void>, languages: boolean }} SurfaceSpec
 */

/** @type {Record<Surface, SurfaceSpec>} */
export const SURFACE_SPECS = {
  elements: {
    name: 'Elements 1.1.1 (card frame)',
    targets: { field: CARD_NUMBER, frame: 'iframe[src*="/card-frame.html"]', done: null },
    referenceTargets: { field: CARD_NUMBER, frame: 'iframe[src*="/reference/"]', done: null },
    pay: async (page) => {
      await typeCard(page.frameLocator('iframe[src*="/card-frame.html"]'));
      await page.locator('#pay-button:enabled').click();
    },
    languages: true,
  },
  iframe: {
    name: 'iframe SDK 1.0.9 (deprecated)',
    targets: { field: CARD_NUMBER, frame: 'iframe[src*="/widget.html"]', done: null },
    referenceTargets: { field: CARD_NUMBER, frame: 'iframe[src*="/reference/"]', done: null },
    pay: async (page) => {
      await typeCard(page.frameLocator('iframe[src*="/widget.html"]'));
      await page.locator('#pay-button:enabled').click();
    },
    languages: false,
  },
  express: {
    name: 'Express 1.0.0 (first wallet button)',
    targets: { field: 'button', frame: null, done: null },
    referenceTargets: { field: 'button', frame: null, done: null },
    pay: async (page) => {
      await page.locator('svc-ecom-sdk-express button').first().click();
      await page.getByRole('dialog').getByRole('button', { name: 'Pay', exact: true }).click();
    },
    languages: false,
  },
  hosted: {
    name: 'hosted payment page (GET /pay/:linkId)',
    targets: { field: CARD_NUMBER, frame: null, done: '#page[data-view="approved"]' },
    referenceTargets: { field: CARD_NUMBER, frame: null, done: null },
    pay: async (page) => {
      await typeCard(page);
      await page.locator('#pay-button:enabled').click();
    },
    languages: true,
  },
};
