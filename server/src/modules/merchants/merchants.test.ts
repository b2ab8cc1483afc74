import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { provisionTestMerchant } from '../../test/fixtures';
import { hashCredential } from '../../auth/credential-hash';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('provisionMerchant', () => {
  it('stores keys only as SHA-256 hashes: no plaintext key anywhere in the database', async () => {
    const created = await provisionTestMerchant(database.db, 'Hash Check', ['https://shop.example.com']);
    const secrets = [created.apiKey, created.branchApiKey, created.clientId, created.deviceId];

    // Every text-like column of every table, dumped as text.
    const dump = await database.sql<{ row: string }[]>`
      select row_to_json(t)::text as row from api_credentials t
      union all select row_to_json(t)::text from merchants t
      union all select row_to_json(t)::text from branches t
      union all select row_to_json(t)::text from devices t`;
    const everything = dump.map((r) => r.row).join('\n');
    for (const secret of secrets) {
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain(secret.slice(secret.indexOf('_') + 1, secret.indexOf('_') + 17));
    }

    const rows = await database.sql<{ kind: string; secret_hash: Buffer; hint: string; allowed_origins: string[] }[]>`
      select kind, secret_hash, hint, allowed_origins from api_credentials where merchant_id = ${created.merchantId} order by kind`;
    expect(rows.map((r) => r.kind)).toEqual(['branch_key', 'client', 'device', 'merchant_key']);
    const byKind = Object.fromEntries(rows.map((r) => [r.kind, r]));
    expect(byKind.merchant_key!.secret_hash).toEqual(hashCredential(created.apiKey));
    expect(byKind.branch_key!.secret_hash).toEqual(hashCredential(created.branchApiKey));
    expect(byKind.device!.secret_hash).toEqual(hashCredential(created.deviceId));
    expect(byKind.client!.allowed_origins).toEqual(['https://shop.example.com']);
    expect(byKind.merchant_key!.hint).toBe(`sk_…${created.apiKey.slice(-4)}`);
  });

  it('gives every merchant its own numeric businessId, branch and device', async () => {
    const a = await provisionTestMerchant(database.db);
    const b = await provisionTestMerchant(database.db);
    expect(a.merchantId).not.toBe(b.merchantId);
    expect(a.branchId).not.toBe(b.branchId);
    const ids = await database.sql<{ business_id: number }[]>`
      select business_id from merchants where id in (${a.merchantId}, ${b.merchantId}) order by business_id`;
    expect(ids).toHaveLength(2);
    expect(ids[1]!.business_id).toBeGreaterThan(ids[0]!.business_id);
  });

  it('refuses a credential row whose kind does not match its scope (CHECK constraint)', async () => {
    const m = await provisionTestMerchant(database.db);
    await expect(
      database.sql`insert into api_credentials (merchant_id, kind, secret_hash, hint) values (${m.merchantId}, 'branch_key', ${hashCredential('x')}, 'bk_…x')`,
    ).rejects.toThrow(/api_credentials_kind_scope/);
  });
});
