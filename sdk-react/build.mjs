// Builds @svc/react: dist/index.mjs and dist/index.cjs (the components with the loader bundled in, React left to the
// page), and the declarations: tsc's of src/, with sdk-types.d.ts replaced by the SDKs' types printed from their
// sources (sdk-core/sdk-types.mjs), so they import nothing but React's.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageDeclarations } from '@svc/sdk-core/types';
import { bundleBothFormats, standaloneDeclarationFiles } from '../scripts/package-build.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { version } = JSON.parse(await readFile(path.join(here, 'package.json'), 'utf8'));

await rm(path.join(here, 'dist'), { recursive: true, force: true });
await bundleBothFormats({ dir: here, entry: 'src/index.ts', platform: 'browser', banner: `// @svc/react ${version}`, external: ['react'] });
await standaloneDeclarationFiles({
  dir: here,
  typesDir: path.join(here, 'dist'),
  replace: { 'sdk-types.d.ts': await packageDeclarations() },
  peers: ['react'],
});
