import { endpointRequest } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { bearer, startTestApp, type TestApp } from '../test/app';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { insertPendingTransaction, provisionTestMerchant } from '../test/fixtures';

let database: TestDatabase;
let app: TestApp;
const lines: { msg?: string; route?: string; status?: number }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) } });
  app = await startTestApp(database, { logger });
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe('the request log', () => {
  it("names an endpoint's route as the metrics label it and the OpenAPI document writes it, and an unknown path as they do", async () => {
    const merchant = await provisionTestMerchant(database.db);
    const { transactionNumber } = await insertPendingTransaction(database.db, { merchantId: merchant.merchantId, branchId: merchant.branchId });
    expect((await app.request(endpointRequest('getTransaction', { transactionNumber }).path, { headers: bearer(merchant.apiKey) })).status).toBe(200);
    expect((await app.request('/no/such/path')).status).toBe(404);
    const routes = lines.filter((line) => line.msg === 'request').map((line) => [line.route, line.status]);
    expect(routes).toEqual([
      ['/transactions/{transactionNumber}', 200],
      ['unmatched', 404],
    ]);
  });
});
