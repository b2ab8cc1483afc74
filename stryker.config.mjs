// Mutation testing (`pnpm mutation`): Stryker changes the rules below one small way at a time (a `<` for a `<=`, a
// dropped `Math.abs`, a `startsWith` for an `===`) and runs their tests; a change no test notices is a test missing.
// Only pure files, whose tests need no database, so a run takes minutes. Not part of `pnpm test`; the score per file is
// in CONTRIBUTING.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'protocol/src/signing.ts',
    'protocol/src/money.ts',
    'server/src/modules/callbacks/address-guard.ts',
    'server/src/modules/payments/card-validation.ts',
    'server/src/modules/transactions/init-amounts.ts',
    'server/src/modules/sdk-sessions/origin-check.ts',
  ],
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'stryker.vitest.config.mjs' },
  coverageAnalysis: 'perTest',
  // The sandbox copy holds only what these tests read; every package's node_modules is linked, not copied.
  ignorePatterns: ['/*', '!/package.json', '!/pnpm-workspace.yaml', '!/tsconfig.json', '!/stryker.vitest.config.mjs', '!/protocol', '!/server', '!/scripts'],
  tempDirName: '.stryker-tmp',
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: 90 },
};
