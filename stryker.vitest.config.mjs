// The tests `pnpm mutation` runs against each mutant: those of the mutated files (stryker.config.mjs), none of which
// needs a database.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'protocol/src/signing.test.ts',
      'protocol/src/signing-edges.test.ts',
      'protocol/src/signing-roll.test.ts',
      'protocol/src/money.test.ts',
      'server/src/modules/callbacks/address-guard.test.ts',
      'server/src/modules/payments/card-validation.test.ts',
      'server/src/modules/transactions/init-amounts.test.ts',
      'server/src/modules/sdk-sessions/origin-check.test.ts',
    ],
  },
});
