// The browser test setup every SDK package shares: real Chromium (Debian's, through Playwright), TypeScript through
// esbuild, the workspace root as the dev server's root (so protocol, sdk-core and pnpm's node_modules are reachable),
// msw's service worker at /mockServiceWorker.js. Test pages run on http://127.0.0.1:<port>; the same server answers on
// http://localhost:<port>, a different origin, for cross-origin frame tests. A package adds its own files and middleware.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';

const require = createRequire(import.meta.url);
const mswWorker = join(dirname(require.resolve('msw/package.json')), 'lib', 'mockServiceWorker.js');

/** /mockServiceWorker.js from msw (its install script, which would copy it, is not run). */
async function serveMswWorker(ctx, next) {
  if (ctx.path !== '/mockServiceWorker.js') return next();
  ctx.type = 'application/javascript';
  ctx.body = await readFile(mswWorker);
}

/**
 * @param {{ packageDir: string, files: string[], middleware?: Function[] }} options packageDir: the package's
 * directory (its tsconfig.json is used); files: test globs relative to it.
 */
export function browserTestConfig({ packageDir, files, middleware = [] }) {
  const executablePath = chromiumPath();
  return {
    rootDir: join(packageDir, '..'),
    files: files.map((glob) => join(packageDir, glob)),
    hostname: '127.0.0.1',
    nodeResolve: { exportConditions: ['development'] },
    // One test file at a time: several suites type into focused fields (sendKeys), and pages running side by side in
    // one browser compete for focus, which made a card-typing test time out on a loaded machine.
    concurrency: 1,
    testsFinishTimeout: 120_000,
    testFramework: { config: { timeout: 10_000 } },
    plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: join(packageDir, 'tsconfig.json') })],
    middleware: [serveMswWorker, ...middleware],
    browsers: [
      playwrightLauncher({
        product: 'chromium',
        launchOptions: { ...(executablePath ? { executablePath } : {}), args: chromiumArgs() },
      }),
    ],
  };
}
