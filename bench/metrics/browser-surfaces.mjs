// The four surfaces of metric 10: what the probe waits for on each (the card number field, in whatever frame; the
// first wallet button for Express), how the shopper pays on it (the sandbox's approving test card, or the wallet's
// sandbox sheet), and what its reference page waits for; and which surfaces also pay with the sandbox's frictionless
// 3-D Secure card.
import { TEST_CARD } from './browser-run.mjs';

const CARD_NUMBER = 'input[autocomplete="cc-number"]';

/**
 * @typedef {{ number: string, expiry: string, cvc: string }} BrowserCard
 * @param {import('playwright-core').Page | import('playwright-core').FrameLocator} where
 * @param {BrowserCard} card
 */
async function typeCard(where, card) {
  await where.locator(CARD_NUMBER).fill(card.number);
  await where.locator('input[autocomplete="cc-exp"]').fill(card.expiry);
  await where.locator('input[autocomplete="cc-csc"]').fill(card.cvc);
}

/**
 * @typedef {import('./browser-pages.mjs').Surface} Surface
 * @typedef {{ name: string, targets: import('./browser-probe.mjs').ProbeTargets, referenceTargets: import('./browser-probe.mjs').ProbeTargets,
 *   pay: (page: import('playwright-core').Page, card?: BrowserCard) => Promise<void>, languages: boolean, threeDSecure: boolean }} SurfaceSpec
 * `pay` types `card` (the approving test card when none is given; Express pays with its wallet sheet);
 * `threeDSecure`: the surface is also paid with the frictionless 3-D Secure card.
 */

/** @type {Record<Surface, SurfaceSpec>} */
export const SURFACE_SPECS = {
  elements: {
    name: 'Elements 1.1.1 (card frame)',
    targets: { field: CARD_NUMBER, frame: 'iframe[src*="/card-frame.html"]', done: null },
    referenceTargets: { field: CARD_NUMBER, frame: 'iframe[src*="/reference/"]', done: null },
    pay: async (page, card = TEST_CARD) => {
      await typeCard(page.frameLocator('iframe[src*="/card-frame.html"]'), card);
      await page.locator('#pay-button:enabled').click();
    },
    languages: true,
    threeDSecure: true,
  },
  iframe: {
    name: 'iframe SDK 1.0.9 (deprecated)',
    targets: { field: CARD_NUMBER, frame: 'iframe[src*="/widget.html"]', done: null },
    referenceTargets: { field: CARD_NUMBER, frame: 'iframe[src*="/reference/"]', done: null },
    pay: async (page, card = TEST_CARD) => {
      await typeCard(page.frameLocator('iframe[src*="/widget.html"]'), card);
      await page.locator('#pay-button:enabled').click();
    },
    languages: false,
    threeDSecure: false,
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
    threeDSecure: false,
  },
  hosted: {
    name: 'hosted payment page (GET /pay/:linkId)',
    targets: { field: CARD_NUMBER, frame: null, done: '#page[data-view="approved"]' },
    referenceTargets: { field: CARD_NUMBER, frame: null, done: null },
    pay: async (page, card = TEST_CARD) => {
      await typeCard(page, card);
      await page.locator('#pay-button:enabled').click();
    },
    languages: true,
    threeDSecure: true,
  },
};
