import { randomBytes } from 'node:crypto';
import { Status, type ProvisionedMerchant } from '@svc/protocol';
import type { Database } from '../db/client';
import type { TestDatabase } from './database';
import { firstBranchAndDevice, insertBranch, insertDevice } from '../modules/merchants/merchants.queries';
import { issueCredentials, provisionMerchant } from '../modules/merchants/merchants.service';
import { insertPaymentToken } from '../modules/payments';
import { insertTransaction } from '../modules/transactions/transactions.queries';

let counter = 0;

/** The PUBLIC_BASE_URL test apps run with (startTestApp). */
export const TEST_PUBLIC_BASE_URL = 'http://localhost:8080';

export function provisionTestMerchant(db: Database, name = `Merchant ${++counter}`, origins = ['http://localhost:3000']): Promise<ProvisionedMerchant> {
  return provisionMerchant(db, { name, origins, publicBaseUrl: TEST_PUBLIC_BASE_URL });
}

/** A pending sale row written directly, for tests that need a transaction but not the init endpoint. */
export async function insertPendingTransaction(
  db: Database,
  owner: { merchantId: string; branchId?: string | null; deviceId?: string | null },
  at = new Date('2026-01-01T00:00:00Z'),
) {
  return insertTransaction(db, {
    transactionNumber: `T${randomBytes(8).toString('hex').toUpperCase()}`,
    merchantId: owner.merchantId,
    branchId: owner.branchId ?? null,
    deviceId: owner.deviceId ?? null,
    methodType: 'sale',
    status: Status.Pending,
    currency: 'USD',
    amountCents: 1250,
    linkId: randomBytes(24).toString('base64url'),
    createdAt: at,
    updatedAt: at,
  });
}

/**
 * A tokenization token of the merchant (as the SDK's tokenize flow issues one) on an authorization created for it
 * directly: `tok_<name>xxx…`, standing for the sandbox method `sbx_alpha_<name>`.
 */
export async function insertTokenizedMethod(db: Database, merchantId: string, name: string): Promise<string> {
  const origin = await insertPendingTransaction(db, { merchantId });
  const token = `tok_${name.padEnd(32, 'x')}`;
  await insertPaymentToken(db, {
    token,
    type: 'token',
    merchantId,
    transactionId: origin.id,
    processor: 'alpha',
    processorReference: `sbx_alpha_${name}`,
    paymentMethod: 'card',
    lastFourDigits: '4242',
    createdAt: new Date(),
  });
  return token;
}

/** A second branch (with its own device) for an existing merchant, and that branch's credentials. */
export async function addBranch(db: Database, merchantId: string) {
  const branch = await insertBranch(db, { merchantId, name: `Branch ${++counter}` });
  const device = await insertDevice(db, { merchantId, branchId: branch.id, name: 'Terminal' });
  const keys = await issueCredentials(db, { merchantId, branchId: branch.id, deviceId: device.id, origins: [] });
  return { branchId: branch.id, deviceRowId: device.id, branchApiKey: keys.branchApiKey, deviceId: keys.deviceId };
}

/** The row id of a merchant's first device (the `devices` table id, not the dev_ credential). */
export async function firstDeviceRowId(db: Database, merchantId: string): Promise<string> {
  const row = await firstBranchAndDevice(db, merchantId);
  if (!row) throw new Error('merchant without a device');
  return row.deviceId;
}

/**
 * A transaction's books as the database holds them: its counters and status, its payments, callback deliveries,
 * processor requests in flight and capture requests in any state.
 */
export async function holdBooks(sql: TestDatabase['sql'], transactionNumber: string) {
  const [row] = await sql<
    {
      captured: number;
      released: number;
      pending: number;
      status: number;
      payments: number;
      callbacks: number;
      requests: number;
      captureRequests: number;
    }[]
  >`
    select t.captured_cents::int as captured, t.released_cents::int as released, t.capture_pending_cents::int as pending, t.status,
      (select count(*) from payments p where p.transaction_id = t.id)::int as payments,
      (select count(*) from callback_deliveries d where d.transaction_id = t.id)::int as callbacks,
      (select count(*) from processor_requests r where r.transaction_id = t.id and r.state = 'in_flight')::int as requests,
      (select count(*) from processor_requests r where r.transaction_id = t.id and r.operation = 'capture')::int as "captureRequests"
    from transactions t where t.transaction_number = ${transactionNumber}`;
  if (!row) throw new Error(`no transaction ${transactionNumber}`);
  return row;
}
