import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SandboxProcessor } from '../../processor/sandbox-processor';
import { ADYEN_TEST_ACCOUNT, ADYEN_TEST_HMAC_KEY, adyenDescriptions, adyenNotification, startAdyenDouble, type AdyenDouble } from '../../test/adyen-double';
import { UNTHROTTLED, useTestApp } from '../../test/harness';
import { provisionTestMerchant } from '../../test/fixtures';
import { authorizedHold, codeOf } from '../../test/merchant-client';
import { testMerchantProcessors } from '../../test/merchant-processors';

/**
 * A merchant that connected its own Adyen account (PUT /merchant/processor): its account's webhooks are verified with
 * the HMAC key it connected, found by the notification's merchantAccountCode; the default account's key and any
 * other key change nothing. The default account here is another Adyen merchant account with its own key.
 */
const published = adyenDescriptions('the Adyen own-account webhook tests');
const OWN_HMAC_KEY = 'A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F90';
const OTHER_HMAC_KEY = '0F1E2D3C4B5A69788796A5B4C3D2E1F00F1E2D3C4B5A69788796A5B4C3D2E1F0';
const sandbox = new SandboxProcessor();
const processors = testMerchantProcessors(() => ({ db: t.database.db, env: t.app.env }), sandbox);
const t = useTestApp({
  env: {
    ...UNTHROTTLED,
    PROCESSOR_SECRETS_KEY: randomBytes(32).toString('base64'),
    ADYEN_HMAC_KEY: ADYEN_TEST_HMAC_KEY,
    ADYEN_MERCHANT_ACCOUNT: 'TheOperatorsDefaultECOM',
  },
  processor: sandbox,
  processors,
});

describe.skipIf(!published)("Adyen webhooks of a merchant's own account", () => {
  let double: AdyenDouble;
  beforeAll(() => {
    double = startAdyenDouble(published!.checkout);
  });
  afterEach(() => expect(double.invalid).toEqual([]));
  afterAll(() => double.close());

  it('verify with the key of the account the notification names, and only then change the books', async () => {
    const connect = (apiKey: string, merchantAccount: string, hmacKey: string) =>
      t.app.request('/merchant/processor', {
        method: 'PUT',
        headers: { authorization: `Bearer ${apiKey}` },
        body: { kind: 'adyen', apiKey: ADYEN_TEST_ACCOUNT.apiKey, merchantAccount, hmacKey },
      });
    expect((await connect(t.merchant.apiKey, ADYEN_TEST_ACCOUNT.merchantAccount, OWN_HMAC_KEY)).status).toBe(200);
    // Another merchant with an Adyen account of its own, whose key it knows.
    const other = await provisionTestMerchant(t.database.db, 'Other Adyen Shop');
    expect((await connect(other.apiKey, 'OtherShopECOM', OTHER_HMAC_KEY)).status).toBe(200);
    const hold = await authorizedHold(t.app, t.client, 5_000);
    expect((await t.client.pay({ token: hold.token, amount: 2_000 })).status).toBe(202);
    const capture = [...double.requests].reverse().find((r) => r.path.endsWith('/captures'))!.answer as {
      pspReference: string;
      paymentPspReference: string;
    };
    const notify = (key: string, merchantAccountCode = ADYEN_TEST_ACCOUNT.merchantAccount) =>
      t.app.request('/processors/adyen/webhooks', {
        body: adyenNotification(
          published!.webhooks,
          'CAPTURE',
          {
            pspReference: capture.pspReference,
            originalReference: capture.paymentPspReference,
            merchantReference: hold.transactionNumber,
            amount: { value: 2_000, currency: 'USD' },
            success: 'true',
            reason: '',
          },
          key,
          merchantAccountCode,
        ),
      });
    const captured = async () => (await t.client.get(hold.transactionNumber)).body.authorization?.capturedCents;

    const forged = await notify('00'.repeat(32));
    expect([forged.status, codeOf(await forged.json())]).toEqual([401, 'unauthorized']);
    // The default account's key signs for the default merchant account only: accepted, nothing changed.
    const byDefaultKey = await notify(ADYEN_TEST_HMAC_KEY);
    expect([byDefaultKey.status, await byDefaultKey.text()]).toEqual([200, '[accepted]']);
    expect(await captured()).toBe(0);
    // Signed by the other merchant's own account: it cannot tell the outcome of this merchant's capture.
    const byOtherMerchant = await notify(OTHER_HMAC_KEY, 'OtherShopECOM');
    expect([byOtherMerchant.status, await byOtherMerchant.text()]).toEqual([200, '[accepted]']);
    expect(await captured()).toBe(0);

    const told = await notify(OWN_HMAC_KEY);
    expect([told.status, await told.text()]).toEqual([200, '[accepted]']);
    expect(await captured()).toBe(2_000);
  });
});
