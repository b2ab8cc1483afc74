// Builds dist/sdk.js (served by the server as /sdk/express/1.0.0/sdk.js), prints its gzip size, and fails when it is
// over its 15 KB budget or pulls in zod.
import { build } from 'esbuild';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const BUDGET = 15 * 1024;

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

const result = await build({
  entryPoints: ['src/sdk.ts'],
  outfile: join(dist, 'sdk.js'),
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
});

const problems = [];
for (const input of Object.keys(result.metafile.inputs)) {
  if (/node_modules[\\/](\.pnpm[\\/])?zod/.test(input)) problems.push(`sdk.js bundles zod (${input}); import only types from @svc/protocol and validate with @svc/protocol/light`);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const size = gzipSync(await readFile(join(dist, 'sdk.js')), { level: 9 }).length;
console.log(`dist/sdk.js                    ${kb(size)} gzip (budget ${kb(BUDGET)})`);
if (size > BUDGET) problems.push(`sdk.js is ${kb(size)} gzip, over its ${kb(BUDGET)} budget`);

if (problems.length) {
  for (const problem of problems) console.error(`build: ${problem}`);
  process.exit(1);
}
