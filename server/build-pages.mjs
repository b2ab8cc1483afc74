// Builds the browser files of the consumer's pages (the hosted payment page, the sticker's waiting page and the sandbox
// terminal simulator) into dist/pages/, served under /pay-assets/. Prints their gzip sizes and fails when the hosted
// page's script and style go over their budget or when a page bundle pulls in zod. `--watch` rebuilds on every change
// (`pnpm dev`). The build steps are the ones every browser bundle shares (sdk-core's build-kit.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBrowserFiles, precompressFolder, runBuild } from '@svc/sdk-core/build';

const root = dirname(fileURLToPath(import.meta.url));
export const PAGES_DIST = join(root, 'dist/pages');
/** The hosted page's script and style, gzip; its HTML is measured by the hosted-page tests (the whole page ≤ 20 KB). */
export const PAY_ASSETS_BUDGET = 16 * 1024;

const ENTRIES = {
  'pay.js': 'src/modules/hosted-page/assets/pay-page.ts',
  'sticker.js': 'src/modules/stickers/assets/sticker-page.ts',
  'terminal.js': 'src/modules/sandbox/assets/terminal-page.ts',
  'bank.js': 'src/modules/sandbox/assets/bank-page.ts',
  'pages.css': 'src/modules/consumer-pages/assets/pages.css',
};

const PAGES = {
  dir: 'dist/pages',
  files: Object.entries(ENTRIES).map(([file, entry]) => ({ entry, file })),
  budgets: [
    ...Object.keys(ENTRIES).map((file) => ({ label: `dist/pages/${file}`, files: [file] })),
    { label: 'hosted page script + style', files: ['pay.js', 'pages.css'], bytes: PAY_ASSETS_BUDGET },
  ],
};

/**
 * Builds the pages' files once, with their brotli and gzip copies beside them; resolves with their gzip sizes, rejects
 * with every problem (sdk-core's BuildProblems).
 */
export async function buildPages({ quiet = false } = {}) {
  const sizes = await buildBrowserFiles(root, PAGES, { quiet });
  await precompressFolder(PAGES_DIST);
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runBuild(root, PAGES);
