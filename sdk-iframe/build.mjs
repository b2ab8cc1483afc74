// Builds dist/sdk.js (the loader, in the merchant page), dist/widget.js and dist/widget.html (the widget page, on the
// service's origin), all served by the server under /sdk/iframe/1.0.9/. Prints their gzip sizes and fails when one is
// over its budget, pulls in zod, or crosses the loader/widget line: the loader may not contain frame code (neither
// src/frame/ nor sdk-core's frame/), the widget may not contain src/host/ (the loader). They share protocol and
// sdk-core/shared only. `--watch` rebuilds on every change (`pnpm dev`). How every SDK builds is sdk-core's
// (build-kit.mjs).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBuild } from '@svc/sdk-core/build';

await runBuild(dirname(fileURLToPath(import.meta.url)), {
  files: [
    {
      entry: 'src/host/loader.ts',
      file: 'sdk.js',
      refuse: (input) => (input.startsWith('src/frame/') || input.startsWith('../sdk-core/src/frame/') ? 'imports frame code' : undefined),
    },
    {
      entry: 'src/frame/widget.ts',
      file: 'widget.js',
      page: { template: 'src/frame/widget.html', file: 'widget.html' },
      refuse: (input) => (input.startsWith('src/host/') ? "imports the loader's code" : undefined),
    },
  ],
  // Loaded when needed: 3-D Secure's dialog (sdk-core's host/open-authentication-dialog.ts) and the wait for the
  // bank's answer (frame/card-submit.ts); the number of payments (frame/lazy-installments-field.ts); the appearance
  // checker, when the merchant gives an appearance (frame/lazy-look.ts).
  lazy: [
    { name: 'authentication-dialog', entry: '../sdk-core/src/host/authentication-dialog.lazy.ts', file: 'authentication-dialog.js', into: ['widget.js'] },
    { name: 'card-authentication', entry: '../sdk-core/src/frame/card-authentication.lazy.ts', file: 'card-authentication.js', into: ['widget.js'] },
    { name: 'installments-field', entry: '../sdk-core/src/frame/installments-field.lazy.ts', file: 'installments-field.js', into: ['widget.js'] },
    { name: 'appearance-check', entry: '../sdk-core/src/frame/appearance-check.lazy.ts', file: 'appearance-check.js', into: ['widget.js'] },
  ],
  publish: { sdk: 'iframe' },
  budgets: [
    { label: 'dist/sdk.js (loader)', files: ['sdk.js'], bytes: 5 * 1024 },
    // The bench's goal (bench/findings.md, sdk-weight): 3-D Secure and the number of payments took the page to 28.1 KB,
    // the lazy scripts, the appearance checker's last, back to 23 KB.
    { label: 'dist/widget.js + .html', files: ['widget.js', 'widget.html'], bytes: 25 * 1024 },
    { label: 'lazy: authentication-dialog.js', files: ['authentication-dialog.js'] },
    { label: 'lazy: card-authentication.js', files: ['card-authentication.js'] },
    { label: 'lazy: installments-field.js', files: ['installments-field.js'] },
    { label: 'lazy: appearance-check.js', files: ['appearance-check.js'] },
  ],
});
