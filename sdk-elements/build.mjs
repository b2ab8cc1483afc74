// Builds dist/sdk.js, dist/card-frame.js and dist/card-frame.html (served by the server under /sdk/elements/1.1.1/),
// prints their gzip sizes, and fails when a bundle is over its budget, pulls in zod, or crosses the host/frame line:
// sdk.js (the merchant page) may not contain sdk-core/src/frame/, card-frame.js may contain only sdk-core's frame/ and
// shared/ code (and protocol), never host code.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const BUDGET = { sdk: 25 * 1024, frame: 20 * 1024 };

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

const common = {
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2022'],
  platform: 'browser',
  legalComments: 'none',
  metafile: true,
  write: true,
  logLevel: 'warning',
  absWorkingDir: root,
};

const [sdk, frame] = await Promise.all([
  build({ ...common, entryPoints: ['src/sdk.ts'], outfile: join(dist, 'sdk.js') }),
  build({ ...common, entryPoints: ['src/card-frame.ts'], outfile: join(dist, 'card-frame.js') }),
]);

// The page is src/card-frame.html with sdk-core's card form markup (its one source) in place of <!-- card form -->.
const markup = await build({ ...common, entryPoints: ['../sdk-core/src/frame/card-form-markup.ts'], format: 'esm', write: false, metafile: false });
const { CARD_FORM_HTML } = await import(`data:text/javascript;base64,${Buffer.from(markup.outputFiles[0].text).toString('base64')}`);
const page = (await readFile(join(root, 'src/card-frame.html'), 'utf8')).replace('<!-- card form -->', () => CARD_FORM_HTML);
await writeFile(join(dist, 'card-frame.html'), page.replace(/\n\s*/g, '\n'));

const problems = [];
const inputsOf = (result) => Object.keys(result.metafile.inputs).map((path) => relative(root, join(root, path)));
for (const [name, result] of [['sdk.js', sdk], ['card-frame.js', frame]]) {
  for (const input of inputsOf(result)) {
    if (/node_modules[\\/](\.pnpm[\\/])?zod/.test(input)) problems.push(`${name} bundles zod (${input}); import only types from @svc/protocol and validate with @svc/protocol/light`);
  }
}
const CORE = '../sdk-core/src/';
for (const input of inputsOf(frame)) {
  const ownEntry = input === 'src/card-frame.ts';
  const frameSide = input.startsWith(`${CORE}frame/`) || input.startsWith(`${CORE}shared/`) || input.startsWith('../protocol/') || input.includes('node_modules');
  if (!ownEntry && !frameSide) problems.push(`card-frame.js imports host code: ${input}`);
}
for (const input of inputsOf(sdk)) {
  if (input.startsWith(`${CORE}frame/`)) problems.push(`sdk.js imports frame code: ${input}`);
}

const gzip = async (file) => gzipSync(await readFile(join(dist, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const sdkSize = await gzip('sdk.js');
const frameSize = (await gzip('card-frame.js')) + (await gzip('card-frame.html'));
console.log(`dist/sdk.js                    ${kb(sdkSize)} gzip (budget ${kb(BUDGET.sdk)})`);
console.log(`dist/card-frame.js + .html     ${kb(frameSize)} gzip (budget ${kb(BUDGET.frame)})`);
if (sdkSize > BUDGET.sdk) problems.push(`sdk.js is ${kb(sdkSize)} gzip, over its ${kb(BUDGET.sdk)} budget`);
if (frameSize > BUDGET.frame) problems.push(`the card frame is ${kb(frameSize)} gzip, over its ${kb(BUDGET.frame)} budget`);

if (problems.length) {
  for (const problem of problems) console.error(`build: ${problem}`);
  process.exit(1);
}
