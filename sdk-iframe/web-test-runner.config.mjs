// The iframe SDK's browser tests in real Chromium (the shared setup: sdk-core/web-test-runner.base.mjs), plus what only
// this SDK needs: its built files under /sdk/iframe/1.0.9/, the widget page served as the server serves it (framed only
// by the `origin` it names; a refusal page for the test's unknown or forbidden client IDs), and the /sdk API for a
// widget on the other origin, whose fetches msw (the test page's service worker) cannot see.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserTestConfig, fakeSdkApi } from '@svc/sdk-core/web-test-runner';

const here = dirname(fileURLToPath(import.meta.url));
// With the lazy scripts the build writes beside them (sdk-core's shared/lazy-script.ts), loaded from the same folder.
const DIST_FILES = {
  'sdk.js': 'application/javascript',
  'widget.js': 'application/javascript',
  'widget.html': 'text/html',
  'authentication-dialog.js': 'application/javascript',
  'card-authentication.js': 'application/javascript',
  'installments-field.js': 'application/javascript',
  'appearance-check.js': 'application/javascript',
};
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
  ctx.set(
    'content-security-policy',
    `frame-ancestors ${origin}; default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-src 'self'`,
  );
  if (refusal) {
    ctx.status = 403;
    ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="svc-widget-refusal" content="${refusal}"><title>Payment form unavailable</title><script src="widget.js" defer></script></head><body><p>Refused</p></body></html>`;
    return;
  }
  ctx.body = await readFile(join(here, 'dist', 'widget.html'));
}

export default browserTestConfig({ packageDir: here, files: ['src/**/*.test.ts'], middleware: [serveBuiltFiles, fakeSdkApi] });
