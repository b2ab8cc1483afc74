// Component tests in real Chromium (Debian's, through Playwright). The dev server's root is the workspace root so the
// protocol sources and pnpm's node_modules are reachable. Test pages run on http://127.0.0.1:<port>; the same server
// answers on http://localhost:<port>, which is a different origin: the cross-origin card frame tests use it.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { answerPayment, answerSession } from './test/fixtures/api-fixtures.js';

const here = dirname(fileURLToPath(import.meta.url));
const executablePath = chromiumPath();
const require = createRequire(import.meta.url);
const mswWorker = join(dirname(require.resolve('msw/package.json')), 'lib', 'mockServiceWorker.js');


const DIST_FILES = { 'sdk.js': 'application/javascript', 'card-frame.js': 'application/javascript', 'card-frame.html': 'text/html' };

/** /sdk/elements/1.1.1/<file> from dist/, as the server serves them; /mockServiceWorker.js from msw. */
async function serveBuiltFiles(ctx, next) {
  const match = /^\/sdk\/elements\/1\.1\.1\/([a-z.-]+)$/.exec(ctx.path);
  if (match && DIST_FILES[match[1]]) {
    ctx.type = DIST_FILES[match[1]];
    ctx.body = await readFile(join(here, 'dist', match[1]));
    if (match[1] === 'card-frame.html') ctx.set('content-security-policy', frameCsp(ctx.query));
    return;
  }
  if (ctx.path === '/mockServiceWorker.js') {
    ctx.type = 'application/javascript';
    ctx.body = await readFile(mswWorker);
    return;
  }
  await next();
}

/**
 * The strict policy the server can give the card frame: it needs no inline script or style (its styles are a constructed
 * style sheet). frame-ancestors is the page origin, as the server sets it; a test that embeds the frame for another
 * origin on purpose leaves it out with `testNoFrameAncestors`.
 */
function frameCsp(query) {
  const policy = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'";
  return query.testNoFrameAncestors ? policy : `${policy}; frame-ancestors ${query.origin}`;
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

let sessions = 0;
/**
 * The /sdk API for requests msw cannot see: those of a card frame on the other origin (its fetches are not controlled by
 * the test page's service worker). CORS as the server does it: the page's Origin is echoed.
 */
async function fakeSdkApi(ctx, next) {
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
  const answer = ctx.path === '/sdk/sessions' ? answerSession(body, `xo${sessions}`) : answerPayment(body, ctx.get('authorization') || null);
  ctx.status = answer.status;
  ctx.type = answer.status === 200 ? 'application/json' : 'application/problem+json';
  ctx.body = JSON.stringify(answer.body);
}

export default {
  rootDir: '..',
  files: ['src/**/*.test.ts'],
  hostname: '127.0.0.1',
  nodeResolve: { exportConditions: ['development'] },
  // One test file at a time: several suites type into focused fields (sendKeys), and pages running side by side in one
  // browser compete for focus, which made a card-typing test time out on a loaded machine.
  concurrency: 1,
  testsFinishTimeout: 120_000,
  testFramework: { config: { timeout: 10_000 } },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: join(here, 'tsconfig.json') })],
  middleware: [serveBuiltFiles, fakeSdkApi],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { ...(executablePath ? { executablePath } : {}), args: chromiumArgs() },
    }),
  ],
};
