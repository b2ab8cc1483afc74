import type { ProvisionedMerchant } from '@svc/protocol';
import { Status } from '@svc/protocol';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './env';
import { createLogger } from './logger';
import { createCallbackDispatcher } from './modules/callbacks/dispatcher';
import { startTestApp, type TestApp } from './test/app';
import { createTestDatabase, type TestDatabase } from './test/database';
import { provisionTestMerchant } from './test/fixtures';

/**
 * The merchant's Node package as a merchant gets it: `pnpm pack` (which builds it), the tarball installed with npm
 * into an empty folder, offline, then a plain `node` script in ESM and one in CommonJS that create a transaction,
 * verify the real callback the service sends them and read a typed refusal. No TypeScript, no workspace, no other
 * package at run time.
 */
const run = promisify(execFile);
const PACKAGE_DIR = path.join(REPO_ROOT, 'merchant-node');
const BACKEND = path.join(PACKAGE_DIR, 'test-consumer/merchant-backend.mjs');

let database: TestDatabase;
let app: TestApp;
let merchant: ProvisionedMerchant;
let dispatcher: ReturnType<typeof createCallbackDispatcher>;
let work: string;
let consumer: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database, { env: { CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' } });
  merchant = await provisionTestMerchant(database.db, 'Node Package Shop');
  dispatcher = createCallbackDispatcher({ db: database.db, clock: app.clock, env: app.env, logger: createLogger({ level: 'silent' }), idleMs: 50 });
  dispatcher.start();

  work = await mkdtemp(path.join(os.tmpdir(), 'svc-node-package-'));
  await run('pnpm', ['pack', '--pack-destination', work], { cwd: PACKAGE_DIR });
  const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error('pnpm pack made no tarball');
  consumer = path.join(work, 'shop');
  await run('mkdir', [consumer]);
  await writeFile(path.join(consumer, 'package.json'), JSON.stringify({ name: 'shop', version: '1.0.0', private: true }));
  // Its own npm cache, offline: the tarball is all there is to install.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--cache', path.join(work, 'npm-cache'), path.join(work, tarball)], { cwd: consumer });
}, 300_000);

afterAll(async () => {
  await dispatcher?.stop();
  await app?.close();
  await database?.drop();
  if (work) await rm(work, { recursive: true, force: true });
});

async function runBackend(file: string) {
  const { stdout } = await run(process.execPath, [file], {
    cwd: consumer,
    env: { PATH: process.env.PATH, SVC_URL: app.baseUrl, SVC_API_KEY: merchant.apiKey, SVC_SECRET: merchant.hmacSecret },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim()) as {
    created: { transactionNumber: string; status: number; amountCents: number };
    callback: { verified: boolean; transactionNumber: string; status: number };
    refusal: { isSvcApiError: boolean; code: string; status: number; requestId: string | null } | null;
  };
}

describe('the @svc/node tarball', () => {
  it('installs into an empty folder with nothing but itself', async () => {
    expect(await readdir(path.join(consumer, 'node_modules'))).toEqual(['.package-lock.json', '@svc']);
    const installed = JSON.parse(await readFile(path.join(consumer, 'node_modules/@svc/node/package.json'), 'utf8')) as Record<string, unknown>;
    expect(installed.dependencies).toBeUndefined();
    const files = await readdir(path.join(consumer, 'node_modules/@svc/node'), { recursive: true });
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.d.cts'))).toEqual([]);
  });

  it.each([
    ['ESM', 'backend.mjs', (source: string) => source],
    [
      'CommonJS',
      'backend.cjs',
      (source: string) =>
        source
          .replace(/^import \{ ([^}]+) \} from '@svc\/node';$/m, "const { $1 } = require('@svc/node');")
          .replace(/^import http from 'node:http';$/m, "const http = require('node:http');"),
    ],
  ])('works from plain node in %s: creates a transaction, verifies its callback, reads a typed error', async (_format, file, convert) => {
    const source = convert(await readFile(BACKEND, 'utf8'));
    if (file.endsWith('.cjs')) expect(source).not.toMatch(/^import /m);
    await writeFile(path.join(consumer, file), source);
    const outcome = await runBackend(file);
    expect(outcome.created).toMatchObject({ status: Status.Pending, amountCents: 1250 });
    expect(outcome.callback).toEqual({ verified: true, transactionNumber: outcome.created.transactionNumber, status: Status.Cancelled });
    expect(outcome.refusal).toMatchObject({ isSvcApiError: true, code: 'not_found', status: 404 });
    expect(outcome.refusal?.requestId).toBeTruthy();
  });

  it('types a TypeScript backend from its .d.ts alone, for import and for require', async () => {
    const typed = [
      "import { createMerchantClient, Status, SvcApiError, verifyCallback, type Transaction, type WsServerMessage } from '@svc/node';",
      "const client = createMerchantClient({ baseUrl: 'http://localhost:8080', apiKey: 'sk_x' });",
      'export async function flow(headers: Record<string, string>, raw: string): Promise<number> {',
      "  const created: Transaction = await client.initTransaction({ amount: 10, currency: 'USD' });",
      "  const paid = await client.pay({ transactionNumber: created.TransactionNumber, amount: 500 }, { idempotencyKey: 'k' });",
      '  // @ts-expect-error pay needs a body',
      '  await client.pay();',
      "  try { await client.getTransaction({ transactionNumber: 'x' }); } catch (e) { if (SvcApiError.is(e, 'not_found')) return e.status; }",
      '  // The listings: filters in their own types, every page with for await; the audit log likewise.',
      '  for await (const refunded of client.transactions.list({ status: [13, 14], createdFrom: new Date(), limit: 100 })) if (refunded.status === Status.Refunded) return refunded.refundedCents;',
      "  const page = await client.listTransactions({ status: Status.Captured, q: '4242' }); if (page.hasMore) return page.data.length;",
      "  for await (const entry of client.auditLog.list({ limit: 10 })) if (entry.action === 'credential.revoked') return 1;",
      "  const me = await client.getCurrentCredential(); if (me.kind === 'branch_key') return 2;",
      "  const message = {} as WsServerMessage; if (message.type === 'transaction.updated') return message.transaction.status;",
      "  return (await verifyCallback('whsec_x', headers, raw)) ? paid.payment.amountCents : 0;",
      '}',
    ].join('\n');
    await writeFile(path.join(consumer, 'typed.mts'), typed);
    await writeFile(path.join(consumer, 'typed.cts'), typed);
    const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
    const options = [
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      'false',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--lib',
      'es2023,dom',
    ];
    await expect(run(process.execPath, [tsc, ...options, 'typed.mts', 'typed.cts'], { cwd: consumer })).resolves.toBeDefined();
    // A misnamed filter, a status as text and a misnamed body field do not compile.
    const misnamed = [
      "import { createMerchantClient } from '@svc/node';",
      "const client = createMerchantClient({ baseUrl: 'http://localhost:8080', apiKey: 'sk_x' });",
      "export const pages = [client.listTransactions({ statuses: [13] }), client.listTransactions({ status: ['13'] })];",
      "export const created = client.initTransaction({ amount: 10, curency: 'USD' });",
    ].join('\n');
    await writeFile(path.join(consumer, 'misnamed.mts'), misnamed);
    const failed = await run(process.execPath, [tsc, ...options, 'misnamed.mts'], { cwd: consumer }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(failed).toContain("'statuses' does not exist in type 'ListTransactionsParams'");
    expect(failed).toContain("Type 'string' is not assignable to type 'TransactionStatusCode'");
    expect(failed).toContain("'curency' does not exist in type");
  }, 180_000);
});
