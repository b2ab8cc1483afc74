// Builds dist/sdk.js, dist/card-frame.js and dist/card-frame.html (served by the server under /sdk/elements/1.1.1/),
// prints their gzip sizes, and fails when a bundle is over its budget, pulls in zod, or crosses the host/frame line:
// sdk.js (the merchant page) may not contain sdk-core/src/frame/, card-frame.js may contain only sdk-core's frame/ and
// shared/ code (and protocol), never host code. The steps every SDK shares are sdk-core's (build-kit.mjs).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, checkBudget, failOn, gzipSize, inputsOf, writePageWithCardForm, zodProblems } from '@svc/sdk-core/build';

const root = dirname(fileURLToPath(import.meta.url));
const BUDGET = { sdk: 25 * 1024, frame: 20 * 1024 };

const [sdk, frame] = await bundle(root, [
  { entry: 'src/sdk.ts', file: 'sdk.js' },
  { entry: 'src/card-frame.ts', file: 'card-frame.js' },
]);
await writePageWithCardForm(root, 'src/card-frame.html', 'card-frame.html');

const problems = [...zodProblems(root, 'sdk.js', sdk), ...zodProblems(root, 'card-frame.js', frame)];
const CORE = '../sdk-core/src/';
for (const input of inputsOf(root, frame)) {
  const ownEntry = input === 'src/card-frame.ts';
  const frameSide =
    input.startsWith(`${CORE}frame/`) || input.startsWith(`${CORE}shared/`) || input.startsWith('../protocol/') || input.includes('node_modules');
  if (!ownEntry && !frameSide) problems.push(`card-frame.js imports host code: ${input}`);
}
for (const input of inputsOf(root, sdk)) {
  if (input.startsWith(`${CORE}frame/`)) problems.push(`sdk.js imports frame code: ${input}`);
}

problems.push(...checkBudget('dist/sdk.js', await gzipSize(root, 'sdk.js'), BUDGET.sdk));
problems.push(...checkBudget('dist/card-frame.js + .html', await gzipSize(root, 'card-frame.js', 'card-frame.html'), BUDGET.frame));
failOn(problems);
