// Express's component tests in real Chromium, with the setup every SDK package shares (sdk-core's base config: the
// workspace root as the dev server's root, esbuild for TypeScript, msw's worker). test/fixtures/ holds the style sheet
// the cssUrl tests load.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserTestConfig } from '@svc/sdk-core/web-test-runner';

const here = dirname(fileURLToPath(import.meta.url));

export default browserTestConfig({ packageDir: here, files: ['src/**/*.test.ts'] });
