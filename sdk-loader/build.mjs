// Builds @svc/sdk-loader: dist/index.mjs and dist/index.cjs (one minified bundle each, nothing imported), and the
// declarations: tsc's of src/, with sdk-types.d.ts replaced by the SDKs' types printed from their sources
// (sdk-core/sdk-types.mjs), so the package needs no other. Prints the script's gzip size and fails over its budget.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { packageDeclarations } from '@svc/sdk-core/types';
import { bundleBothFormats, standaloneDeclarationFiles } from '../scripts/package-build.mjs';

const BUDGET_BYTES = 1024;
const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const { version } = JSON.parse(await readFile(path.join(here, 'package.json'), 'utf8'));

await rm(dist, { recursive: true, force: true });
await bundleBothFormats({ dir: here, entry: 'src/index.ts', platform: 'browser', banner: `// @svc/sdk-loader ${version}`, minify: true });
await standaloneDeclarationFiles({ dir: here, typesDir: dist, replace: { 'sdk-types.d.ts': await packageDeclarations() } });

const size = gzipSync(await readFile(path.join(dist, 'index.mjs'))).length;
console.log(`dist/index.mjs ${size} B gzip (budget ${BUDGET_BYTES} B)`);
if (size > BUDGET_BYTES) {
  console.error(`build: dist/index.mjs is ${size} B gzip, over its ${BUDGET_BYTES} B budget`);
  process.exit(1);
}
