// Builds dist/sdk.js, dist/card-frame.js and dist/card-frame.html (served by the server under /sdk/elements/1.1.1/),
// prints their gzip sizes, and fails when a bundle is over its budget, pulls in zod, or crosses the host/frame line:
// sdk.js (the merchant page) may not contain sdk-core/src/frame/ nor the appearance checker (the card frame checks
// the look and tells the element what it accepted), card-frame.js may contain only sdk-core's frame/ and shared/ code
// (and protocol), never host code. `--watch` rebuilds on every change (`pnpm dev`). How every SDK builds
// is sdk-core's (build-kit.mjs).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBuild } from '@svc/sdk-core/build';

const CORE = '../sdk-core/src/';

await runBuild(dirname(fileURLToPath(import.meta.url)), {
  files: [
    {
      entry: 'src/sdk.ts',
      file: 'sdk.js',
      refuse: (input) =>
        input.startsWith(`${CORE}frame/`)
          ? 'imports frame code'
          : input === `${CORE}shared/appearance.ts`
            ? 'imports the appearance checker (the card frame checks the look)'
            : undefined,
    },
    {
      entry: 'src/card-frame.ts',
      file: 'card-frame.js',
      page: { template: 'src/card-frame.html', file: 'card-frame.html' },
      refuse: (input) =>
        input === 'src/card-frame.ts' ||
        input.startsWith(`${CORE}frame/`) ||
        input.startsWith(`${CORE}shared/`) ||
        input.startsWith('../protocol/') ||
        input.includes('node_modules')
          ? undefined
          : 'imports host code',
    },
  ],
  // Loaded when needed: 3-D Secure's dialog in sdk.js (sdk-core's host/open-authentication-dialog.ts) and the card
  // frame's wait for the bank's answer (frame/card-submit.ts); the number of payments (frame/lazy-installments-field.ts).
  lazy: [
    { name: 'authentication-dialog', entry: '../sdk-core/src/host/authentication-dialog.lazy.ts', file: 'authentication-dialog.js', into: ['sdk.js'] },
    { name: 'card-authentication', entry: '../sdk-core/src/frame/card-authentication.lazy.ts', file: 'card-authentication.js', into: ['card-frame.js'] },
    { name: 'installments-field', entry: '../sdk-core/src/frame/installments-field.lazy.ts', file: 'installments-field.js', into: ['card-frame.js'] },
  ],
  publish: { sdk: 'elements', elements: ['src/components/**/*.ts'] },
  // The bench's goals (bench/metrics/sdk-weight.mjs). The lazy scripts are printed, with no limit: a page that never
  // needs one never loads it (bench/findings.md, sdk-weight).
  budgets: [
    { label: 'dist/sdk.js', files: ['sdk.js'], bytes: 25 * 1024 },
    { label: 'dist/card-frame.js + .html', files: ['card-frame.js', 'card-frame.html'], bytes: 20 * 1024 },
    { label: 'lazy: authentication-dialog.js', files: ['authentication-dialog.js'] },
    { label: 'lazy: card-authentication.js', files: ['card-authentication.js'] },
    { label: 'lazy: installments-field.js', files: ['installments-field.js'] },
  ],
});
