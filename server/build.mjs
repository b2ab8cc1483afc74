// Production build of the server: one ESM bundle per entry (the service and the operator CLI), with the
// workspace's `protocol` inlined and npm packages left external, plus the SQL migrations beside them.
import { cp, readFile, rm } from 'node:fs/promises';
import { build } from 'esbuild';
import { buildPages } from './build-pages.mjs';

const { dependencies } = JSON.parse(await readFile('package.json', 'utf8'));
const external = Object.keys(dependencies).filter((name) => !name.startsWith('@svc/'));

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/main.ts', svc: 'src/cli/svc.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  // npm packages stay external; `@svc/protocol` is TypeScript source in the workspace and is bundled.
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'info',
});
await cp('src/db/migrations', 'dist/migrations', { recursive: true });
// The consumer pages' script and style (dist/pages/), served under /pay-assets/.
await buildPages();
