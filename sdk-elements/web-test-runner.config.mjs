// Elements' browser tests in real Chromium (the shared setup: sdk-core/web-test-runner.base.mjs), plus what only
// Elements needs: its built files under /sdk/elements/1.1.1/ and the /sdk API for a card frame on the other origin.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cardFrameCsp } from '@svc/protocol/card-frame-csp';
import { answerPayment, answerSession } from '@svc/sdk-core/testing/api-fixtures';
import { browserTestConfig } from '@svc/sdk-core/web-test-runner';

const here = dirname(fileURLToPath(import.meta.url));

const DIST_FILES = { 'sdk.js': 'application/javascript', 'card-frame.js': 'application/javascript', 'card-frame.html': 'text/html' };

/** /sdk/elements/1.1.1/<file> from dist/, as the server serves them. */
async function serveBuiltFiles(ctx, next) {
  const match = /^\/sdk\/elements\/1\.1\.1\/([a-z.-]+)$/.exec(ctx.path);
  if (match && DIST_FILES[match[1]]) {
    ctx.type = DIST_FILES[match[1]];
    ctx.body = await readFile(join(here, 'dist', match[1]));
    if (match[1] === 'card-frame.html') ctx.set('content-security-policy', frameCsp(ctx.query));
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
  return cardFrameCsp(query.testNoFrameAncestors ? null : query.origin);
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

export default browserTestConfig({ packageDir: here, files: ['src/**/*.test.ts'], middleware: [serveBuiltFiles, fakeSdkApi] });
