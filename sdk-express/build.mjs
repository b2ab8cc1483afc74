// Builds dist/sdk.js (served by the server as /sdk/express/1.0.0/sdk.js), prints its gzip size, and fails when it is
// over its 15 KB budget or pulls in zod. The steps every SDK shares are sdk-core's (build-kit.mjs).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, checkBudget, failOn, gzipSize, zodProblems } from '@svc/sdk-core/build';

const root = dirname(fileURLToPath(import.meta.url));
const BUDGET = 15 * 1024;

const [result] = await bundle(root, [{ entry: 'src/sdk.ts', file: 'sdk.js' }]);
failOn([...zodProblems(root, 'sdk.js', result), ...checkBudget('dist/sdk.js', await gzipSize(root, 'sdk.js'), BUDGET)]);
