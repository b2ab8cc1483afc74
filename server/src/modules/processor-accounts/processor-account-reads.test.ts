import { describe, expect, it } from 'vitest';
import { SandboxProcessor } from '../../processor/sandbox-processor';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { authorizedHold } from '../../test/merchant-client';
import { testMerchantProcessors } from '../../test/merchant-processors';

/**
 * A lifecycle asks for the merchant's processor at init, at the consumer's payment and at the capture (their checks,
 * their calls, their recordings): six times, and each used to read the merchant's account. With the account kept per
 * instance, a merchant's account is read once, and not again while it is kept.
 */
const sandbox = new SandboxProcessor();
const processors = testMerchantProcessors(() => ({ db: t.database.db, env: t.app.env }), sandbox);
const t = useTestApp({ env: UNTHROTTLED, processor: sandbox, processors });

/** The statements the app's pool sends while `run` runs, transactions' included (postgres.js's `debug` sees each). */
async function statementsOf(run: () => Promise<void>): Promise<string[]> {
  const options = t.database.sql.options as { debug?: unknown };
  const sent: string[] = [];
  options.debug = (_connection: number, text: string) => sent.push(text);
  try {
    await run();
  } finally {
    delete options.debug;
  }
  return sent;
}

async function lifecycle(): Promise<void> {
  const hold = await authorizedHold(t.app, t.client, 4_000);
  const captured = await t.client.pay({ token: hold.token, amount: 4_000 });
  expect(captured.status).toBe(200);
}

describe("a lifecycle and the merchant's processor account", () => {
  it('reads the account once for a whole sequence, and not at all while it is kept', async () => {
    const cold = await statementsOf(lifecycle);
    const reads = (statements: string[]) => statements.filter((text) => text.includes('"processor_accounts"'));
    // The counting sees the sequence's statements: many, of which one reads the account.
    expect(cold.length).toBeGreaterThan(10);
    expect(reads(cold)).toHaveLength(1);
    const warm = await statementsOf(lifecycle);
    expect(warm.length).toBeGreaterThan(10);
    expect(reads(warm)).toHaveLength(0);
  });
});
