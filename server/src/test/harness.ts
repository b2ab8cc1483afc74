import type { ProvisionedMerchant } from '@svc/protocol';
import { afterAll, beforeAll } from 'vitest';
import type { Clock } from '../clock';
import type { DatabaseHandle } from '../db/client';
import type { Logger } from '../logger';
import type { PaymentProcessor } from '../processor/processor';
import type { ProcessorRegistry } from '../processor/processor-registry';
import { startTestApp, type TestApp } from './app';
import { createTestDatabase, openTestPool, TEST_POOL_MAX, type TestDatabase } from './database';
import { provisionTestMerchant } from './fixtures';
import { merchantClient, type MerchantClient } from './merchant-client';

export interface TestHarness {
  database: TestDatabase;
  app: TestApp;
  merchant: ProvisionedMerchant;
  client: MerchantClient;
}

/** Limits high enough that a test's own traffic is never throttled. */
export const UNTHROTTLED = { RATE_LIMIT_PER_S: '100000', RATE_LIMIT_BURST: '100000' } as const;

/**
 * The usual test file set-up: a fresh database, the app on it, one merchant and its HTTP client; torn down after
 * the file. Read the fields inside tests (they exist once beforeAll has run).
 */
export function useTestApp(
  options: {
    env?: Record<string, string>;
    merchantName?: string;
    origins?: string[];
    poolMax?: number;
    logger?: Logger;
    clock?: Clock;
    processor?: PaymentProcessor;
    processors?: ProcessorRegistry;
    /** The app's own pool gets this statement_timeout (the test's `database` keeps none, to hold locks at will). */
    statementTimeoutMs?: number;
  } = {},
): TestHarness {
  const harness = {} as TestHarness;
  let appDatabase: DatabaseHandle | null = null;
  beforeAll(async () => {
    harness.database = await createTestDatabase(options.poolMax ? { max: options.poolMax } : {});
    if (options.statementTimeoutMs !== undefined) {
      appDatabase = openTestPool(harness.database.url, { max: options.poolMax ?? TEST_POOL_MAX, statementTimeoutMs: options.statementTimeoutMs });
    }
    const appSide = appDatabase
      ? { db: appDatabase.db, sql: appDatabase.sql, url: harness.database.url, listener: harness.database.listener }
      : harness.database;
    harness.app = await startTestApp(appSide, {
      ...(options.env ? { env: options.env } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.processor ? { processor: options.processor } : {}),
      ...(options.processors ? { processors: options.processors } : {}),
    });
    harness.merchant = await provisionTestMerchant(harness.database.db, options.merchantName, options.origins);
    harness.client = merchantClient(harness.app, harness.merchant);
  });
  afterAll(async () => {
    await harness.app?.close();
    await appDatabase?.close();
    await harness.database?.drop();
  });
  return harness;
}
