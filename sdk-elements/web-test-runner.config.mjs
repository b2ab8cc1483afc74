// Elements' browser tests in real Chromium (the shared setup: sdk-core/web-test-runner.base.mjs), plus what only
// Elements needs: its built files under /sdk/elements/1.1.1/ and the /sdk API for a card frame on the other origin.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cardFrameCsp } from '@svc/protocol/card-frame-csp';
import { browserTestConfig, fakeSdkApi } from '@svc/sdk-core/web-test-runner';

const here = dirname(fileURLToPath(import.meta.url));

// With the lazy scripts the build writes beside them (sdk-core's shared/lazy-script.ts), loaded from the same folder.
const DIST_FILES = {
  'sdk.js': 'application/javascript',
  'card-frame.js': 'application/javascript',
  'card-frame.html': 'text/html',
  'authentication-dialog.js': 'application/javascript',
  'card-authentication.js': 'application/javascript',
  'installments-field.js': 'application/javascript',
};

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
 * origin on purpose leaves it out with `testNoFrameAncestors`, and one that only reads the page's text gives none.
 */
function frameCsp(query) {
  return cardFrameCsp(query.testNoFrameAncestors || !query.origin ? null : query.origin);
}

export default browserTestConfig({ packageDir: here, files: ['src/**/*.test.ts'], middleware: [serveBuiltFiles, fakeSdkApi] });
