// sdk-core's own browser tests (card rules, the postMessage channel, the API base, the card form, the SDK over a
// test adapter), in real Chromium: see web-test-runner.base.mjs.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserTestConfig, fakeSdkApi } from './web-test-runner.base.mjs';

const here = dirname(fileURLToPath(import.meta.url));

// fakeSdkApi: the /sdk API msw does not answer (a challenge card's payment, for the fake bank's page).
export default browserTestConfig({ packageDir: here, files: ['src/**/*.test.ts'], middleware: [fakeSdkApi] });
