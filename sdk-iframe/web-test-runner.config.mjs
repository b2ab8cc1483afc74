// The iframe SDK's browser tests in real Chromium (the shared setup: sdk-core/web-test-runner.base.mjs), plus what only
// this SDK needs: its built files under /sdk/iframe/1.0.9/, the widget page served as the server serves it (framed only
// by the `origin` it names; a refusal page for the test's unknown or forbidden client IDs), and the /sdk API for a
// widget on the other origin, whose fetches msw (the test page's service worker) cannot see.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerPayment, answerSession } from '@svc/sdk-core/testing/api-fixtures';
import { browserTestConfig } from '@svc/sdk-core/web-test-runner';

const here = dirname(fileURLToPath(import.meta.url));
const DIST_FILES = { 'sdk.js': 'application/javascript', 'widget.js': 'application/javascript', 'widget.html': 'text/html' };
const REFUSED = { ck_unknown: 'client_id_unknown', ck_forbidden: 'origin_not_allowed' };

async function serveBuiltFiles(ctx, next) {
  const match = /^\/sdk\/iframe\/1\.0\.9\/([a-z.-]+)$/.exec(ctx.path);
  if (!match || !DIST_FILES[match[1]]) return next();
  ctx.type = DIST_FILES[match[1]];
  if (match[1] !== 'widget.html') {
    ctx.body = await readFile(join(here, 'dist', match[1]));
    return;
  }
  const { clientId, origin } = ctx.query;
  const refusal = REFUSED[clientId];
  ctx.set('content-security-policy', `frame-ancestors ${origin}; default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'`);
  if (refusal) {
    ctx.status = 403;
    ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="svc-widget-refusal" content="${refusal}"><title>Payment form unavailable</title><script src="widget.js" defer></script></head><body><p>Refused</p></body></html>`;
    return;
  }
  ctx.body = await readFile(join(here, 'dist', 'widget.html'));
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
/** The /sdk API for the widget on the other origin, with CORS as the server answers it. */
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
