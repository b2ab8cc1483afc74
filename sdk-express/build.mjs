// Builds dist/sdk.js (served by the server as /sdk/express/1.0.0/sdk.js), prints its gzip size, and fails when it is
// over its 18 KB budget (the bench's goal) or pulls in zod. `--watch` rebuilds on every change (`pnpm dev`). How every SDK builds is
// sdk-core's (build-kit.mjs).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBuild } from '@svc/sdk-core/build';

await runBuild(dirname(fileURLToPath(import.meta.url)), {
  files: [{ entry: 'src/sdk.ts', file: 'sdk.js' }],
  // The sandbox's wallet sheet, loaded only in sandbox mode (src/wallets/lazy-sandbox-sheet.ts).
  lazy: [{ name: 'sandbox-sheet', entry: 'src/wallets/sandbox-sheet.lazy.ts', file: 'sandbox-sheet.js', into: ['sdk.js'] }],
  publish: { sdk: 'express', elements: ['src/components/**/*.ts'] },
  budgets: [
    { label: 'dist/sdk.js', files: ['sdk.js'], bytes: 18 * 1024 },
    { label: 'lazy: sandbox-sheet.js', files: ['sandbox-sheet.js'] },
  ],
});
