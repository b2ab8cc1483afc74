// The browser test setup every SDK package shares: real Chromium (Debian's, through Playwright), TypeScript through
// esbuild, the workspace root as the dev server's root (so protocol, sdk-core and pnpm's node_modules are reachable),
// msw's service worker at /mockServiceWorker.js. Test pages run on http://127.0.0.1:<port>; the same server answers on
// http://localhost:<port>, a different origin, for cross-origin frame tests (fakeSdkApi answers a frame there). A
// package adds its own files and middleware.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { answerPayment, answerSession } from './src/testing/api-fixtures.js';
import { CHALLENGE_CARDS, fakeBank, fakeBankSocket, fakeBankState, startChallenge } from './src/testing/fake-bank.mjs';

const require = createRequire(import.meta.url);
const mswWorker = join(dirname(require.resolve('msw/package.json')), 'lib', 'mockServiceWorker.js');

/** /mockServiceWorker.js from msw (its install script, which would copy it, is not run). */
async function serveMswWorker(ctx, next) {
  if (ctx.path !== '/mockServiceWorker.js') return next();
  ctx.type = 'application/javascript';
  ctx.body = await readFile(mswWorker);
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return {};
  }
}

const LOCALES = join(dirname(new URL(import.meta.url).pathname), 'src', 'shared', 'i18n', 'locales');

/** /sdk/locales/<language>.json, as the service publishes the catalogues (any origin may read them). */
async function serveLocales(ctx, next) {
  const match = /^\/sdk\/locales\/([a-z]{2})\.json$/.exec(ctx.path);
  if (!match) return next();
  try {
    ctx.body = await readFile(join(LOCALES, `${match[1]}.json`));
  } catch {
    return next();
  }
  ctx.type = 'application/json';
  ctx.set('access-control-allow-origin', '*');
}

let sessions = 0;
/**
 * Middleware: the /sdk API for requests msw cannot see (and a challenge card's, which msw passes through here: the
 * bank's page, its answer and the websocket are the test server's, fake-bank.mjs), those of a frame on the other origin (its fetches are not
 * controlled by the test page's service worker), answered from testing/api-fixtures.js. CORS as the server does it:
 * the page's Origin is echoed.
 */
export async function fakeSdkApi(ctx, next) {
  if (!ctx.path.startsWith('/sdk/sessions')) return next();
  const origin = ctx.get('origin');
  if (origin) {
    ctx.set('access-control-allow-origin', origin);
    ctx.set('access-control-allow-headers', 'content-type, authorization');
    ctx.set('access-control-allow-methods', 'POST');
    ctx.set('vary', 'Origin');
  }
  if (ctx.method === 'OPTIONS') {
    ctx.status = 204;
    return;
  }
  if (ctx.method !== 'POST') return next();
  const body = await readJson(ctx.req);
  sessions += 1;
  const authorization = ctx.get('authorization') || null;
  const answer =
    ctx.path === '/sdk/sessions'
      ? answerSession(body, `xo${sessions}`)
      : body.method === 'card' && CHALLENGE_CARDS[body.card?.number] && authorization?.startsWith('Bearer tok_')
        ? startChallenge(body, authorization, ctx.origin)
        : answerPayment(body, authorization);
  ctx.status = answer.status;
  ctx.type = answer.status < 300 ? 'application/json' : 'application/problem+json';
  ctx.body = JSON.stringify(answer.body);
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
    plugins: [esbuildPlugin({ ts: true, json: true, target: 'es2022', tsconfig: join(packageDir, 'tsconfig.json') }), fakeBankSocket()],
    middleware: [serveMswWorker, serveLocales, fakeBank, fakeBankState, ...middleware],
    browsers: [
      playwrightLauncher({
        product: 'chromium',
        launchOptions: { ...(executablePath ? { executablePath } : {}), args: chromiumArgs() },
      }),
    ],
  };
}
