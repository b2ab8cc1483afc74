// Builds the browser files of the consumer's pages (the hosted payment page, the sticker's waiting page and the sandbox
// terminal simulator) into dist/pages/, served under /pay-assets/. Prints their gzip sizes and fails when the hosted
// page's script and style go over their budget or when a page bundle pulls in zod.
import { build } from 'esbuild';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

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
  await rm(PAGES_DIST, { recursive: true, force: true });
  await mkdir(PAGES_DIST, { recursive: true });
  const results = await Promise.all(
    Object.entries(ENTRIES).map(([name, entry]) =>
      build({
        entryPoints: [entry],
        outfile: join(PAGES_DIST, name),
        bundle: true,
        minify: true,
        format: 'iife',
        target: ['es2022'],
        platform: 'browser',
        legalComments: 'none',
        metafile: true,
        logLevel: 'warning',
        absWorkingDir: root,
      }).then((result) => [name, result]),
    ),
  );
  const problems = [];
  for (const [name, result] of results) {
    for (const input of Object.keys(result.metafile.inputs)) {
      if (/node_modules[\\/](\.pnpm[\\/])?zod/.test(input)) problems.push(`${name} bundles zod (${input}); validate with @svc/protocol/light`);
    }
  }
  const sizes = {};
  for (const name of Object.keys(ENTRIES)) sizes[name] = gzipSync(await readFile(join(PAGES_DIST, name)), { level: 9 }).length;
  const pay = sizes['pay.js'] + sizes['pages.css'];
  if (!quiet) {
    for (const [name, size] of Object.entries(sizes)) console.log(`dist/pages/${name.padEnd(12)} ${(size / 1024).toFixed(1)} KB gzip`);
    console.log(`hosted page script + style  ${(pay / 1024).toFixed(1)} KB gzip (budget ${(PAY_ASSETS_BUDGET / 1024).toFixed(1)} KB)`);
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
