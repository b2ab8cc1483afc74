// Builds dist/sdk.js (the loader, in the merchant page), dist/widget.js and dist/widget.html (the widget page, on the
// service's origin), all served by the server under /sdk/iframe/1.0.9/. Prints their gzip sizes and fails when one is
// over its budget, pulls in zod, or crosses the loader/widget line: the loader may not contain frame code (neither
// src/frame/ nor sdk-core's frame/), the widget may not contain src/host/ (the loader). They share protocol and
// sdk-core/shared only. The steps every SDK shares are sdk-core's (build-kit.mjs).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, checkBudget, failOn, gzipSize, inputsOf, writePageWithCardForm, zodProblems } from '@svc/sdk-core/build';

const root = dirname(fileURLToPath(import.meta.url));
const BUDGET = { loader: 5 * 1024, widget: 25 * 1024 };
const [loader, widget] = await bundle(root, [
  { entry: 'src/host/loader.ts', file: 'sdk.js' },
  { entry: 'src/frame/widget.ts', file: 'widget.js' },
]);
await writePageWithCardForm(root, 'src/frame/widget.html', 'widget.html');

const problems = [...zodProblems(root, 'sdk.js', loader), ...zodProblems(root, 'widget.js', widget)];
for (const input of inputsOf(root, loader)) {
  if (input.startsWith('src/frame/') || input.startsWith('../sdk-core/src/frame/')) problems.push(`sdk.js (the loader) imports frame code: ${input}`);
}
for (const input of inputsOf(root, widget)) {
  if (input.startsWith('src/host/')) problems.push(`widget.js imports the loader's code: ${input}`);
}

problems.push(...checkBudget('dist/sdk.js (loader)', await gzipSize(root, 'sdk.js'), BUDGET.loader));
problems.push(...checkBudget('dist/widget.js + .html', await gzipSize(root, 'widget.js', 'widget.html'), BUDGET.widget));
failOn(problems);
