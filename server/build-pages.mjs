// Builds the browser files of the consumer's pages (the hosted payment page, the sticker's waiting page and the sandbox
// terminal simulator) into dist/pages/, served under /pay-assets/. Prints their gzip sizes and fails when the hosted
// page's script and style go over their budget or when a page bundle pulls in zod. The build steps are the ones every
// browser bundle shares (sdk-core's build-kit.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, gzipSize, kb, zodProblems } from '@svc/sdk-core/build';

const root = dirname(fileURLToPath(import.meta.url));
export const PAGES_DIST = join(root, 'dist/pages');
/** The hosted page's script and style, gzip; its HTML is measured by the hosted-page tests (the whole page ≤ 20 KB). */
export const PAY_ASSETS_BUDGET = 16 * 1024;

const ENTRIES = {
  'pay.js': 'src/modules/hosted-page/assets/pay-page.ts',
  'sticker.js': 'src/modules/stickers/assets/sticker-page.ts',
  'terminal.js': 'src/modules/sandbox/assets/terminal-page.ts',
  'pages.css': 'src/modules/consumer-pages/assets/pages.css',
};

export async function buildPages({ quiet = false } = {}) {
  const names = Object.keys(ENTRIES);
  const results = await bundle(
    root,
    names.map((file) => ({ entry: ENTRIES[file], file })),
    { dir: 'dist/pages' },
  );
  const problems = names.flatMap((name, index) => zodProblems(root, name, results[index]));
  const sizes = {};
  for (const name of names) sizes[name] = await gzipSize(root, `pages/${name}`);
  const pay = sizes['pay.js'] + sizes['pages.css'];
  if (!quiet) {
    for (const [name, size] of Object.entries(sizes)) console.log(`dist/pages/${name.padEnd(12)} ${kb(size)} gzip`);
    console.log(`hosted page script + style  ${kb(pay)} gzip (budget ${kb(PAY_ASSETS_BUDGET)})`);
  }
  if (pay > PAY_ASSETS_BUDGET) problems.push(`the hosted page's script and style are ${pay} bytes gzip, over the ${PAY_ASSETS_BUDGET} budget`);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildPages().catch((error) => {
    console.error(`build-pages: ${error.message}`);
    process.exit(1);
  });
}
