import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger';
import { sealCredentials } from '../../processor/processor-secrets';
import { provisionTestMerchant } from '../../test/fixtures';
import { useTestApp } from '../../test/harness';
import { MAX_STRIPE_WEBHOOK_ACCOUNTS, stripeWebhookAccounts } from '.';
import { saveProcessorAccount } from './processor-accounts.queries';

const lines: Record<string, unknown>[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const logger = createLogger({ level: 'info', destination });
const t = useTestApp({ env: { PROCESSOR_SECRETS_KEY: randomBytes(32).toString('base64') }, logger });

async function connectStripe(count: number): Promise<void> {
  const key = t.app.env.PROCESSOR_SECRETS_KEY!;
  for (let i = 0; i < count; i++) {
    const { merchantId } = await provisionTestMerchant(t.database.db);
    const credentials = { secretKey: 'sk_test_merchantOwnStripeKey1234', webhookSecret: `whsec_test_account_${merchantId}` };
    await saveProcessorAccount(t.database.db, {
      merchantId,
      kind: 'stripe',
      hint: 'sk_test_…1234',
      sealedCredentials: sealCredentials(credentials, key, merchantId),
      updatedAt: new Date(),
    });
  }
}
const capped = () => lines.filter((line) => line.code === 'stripe_webhook_accounts_capped');
const accounts = () => stripeWebhookAccounts({ db: t.database.db, env: t.app.env, logger });

describe("the merchants' own Stripe accounts a Stripe webhook is tried with", () => {
  it('are all of them at the limit, without a warning; one more is left out, and the log says so', async () => {
    await connectStripe(MAX_STRIPE_WEBHOOK_ACCOUNTS);
    expect(await accounts()).toHaveLength(MAX_STRIPE_WEBHOOK_ACCOUNTS);
    expect(capped()).toEqual([]);

    await connectStripe(1);
    expect(await accounts()).toHaveLength(MAX_STRIPE_WEBHOOK_ACCOUNTS);
    expect(capped()).toHaveLength(1);
  });
});
