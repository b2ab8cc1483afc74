import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, strictTypeErrors } from '../../scripts/packed-package.mjs';

/**
 * @svc/sdk-loader as a developer gets it: packed, installed from its tarball alone into an empty folder, then imported
 * from ESM and CommonJS, and a page's strict TypeScript checked against its types.
 */
const run = promisify(execFile);
let installed: Awaited<ReturnType<typeof installPacked>>;
const packageDir = path.join(import.meta.dirname, '..');

beforeAll(async () => {
  installed = await installPacked(packageDir);
}, 300_000);
afterAll(() => installed?.remove());

const page = (body: string[]) =>
  [
    "import { loadServiceSDK, type SdkConfig, type SvcEcomSdkExpressElement } from '@svc/sdk-loader';",
    'export async function checkout(): Promise<void> {',
    ...body.map((line) => `  ${line}`),
    '}',
  ].join('\n');

const CHECKOUT = [
  "const sdk = await loadServiceSDK({ baseUrl: 'https://pay.example.com', sdk: 'elements' });",
  "const config: SdkConfig = { mode: 'sandbox', clientId: 'ck_…', methodType: 'manual_capture' };",
  'sdk.config(config);',
  'sdk.error(({ code, message }) => console.warn(code, message));',
  "sdk.init('service-front-end');",
  "sdk.pay((transaction) => console.log(transaction.TransactionNumber, transaction.status), { amount: 2500, currency: 'USD' });",
  "const Express = await loadServiceSDK({ baseUrl: 'https://pay.example.com', sdk: 'express' });",
  'const buttons: SvcEcomSdkExpressElement = new Express();',
  "buttons.props = { clientId: 'ck_…', amount: '25.00', currency: 'USD', mode: 'sandbox', onPay: (data) => console.log(data.transactionNumber) };",
  "document.createElement('svc-ecom-sdk-express').addEventListener('svc-pay', (event) => console.log(event.detail.method));",
];

describe('the @svc/sdk-loader tarball', () => {
  it('installs into an empty folder with nothing but itself', async () => {
    expect(await readdir(path.join(installed.folder, 'node_modules'))).toEqual(['.package-lock.json', '@svc']);
    const manifest = JSON.parse(await readFile(path.join(installed.folder, 'node_modules/@svc/sdk-loader/package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    const files = await readdir(path.join(installed.folder, 'node_modules/@svc/sdk-loader/dist'));
    expect(files.sort()).toEqual(['index.cjs', 'index.d.cts', 'index.d.ts', 'index.mjs', 'sdk-types.d.cts', 'sdk-types.d.ts']);
  });

  it('is imported from ESM and required from CommonJS, and says it runs in a browser when called elsewhere', async () => {
    const script = (load: string) =>
      `${load}\nloadServiceSDK({ baseUrl: 'http://localhost:8080', sdk: 'elements' }).catch((error) => console.log(error.message));`;
    await writeFile(path.join(installed.folder, 'esm.mjs'), script("import { loadServiceSDK } from '@svc/sdk-loader';"));
    await writeFile(path.join(installed.folder, 'cjs.cjs'), script("const { loadServiceSDK } = require('@svc/sdk-loader');"));
    for (const file of ['esm.mjs', 'cjs.cjs']) {
      const { stdout } = await run(process.execPath, [file], { cwd: installed.folder });
      expect(stdout.trim(), file).toBe('loadServiceSDK runs in a browser: call it from the page, not on the server');
    }
  });

  it("types a strict page: the resolved SDK's options, callbacks and the Express element compile", async () => {
    expect(await strictTypeErrors(installed.folder, { 'checkout.mts': page(CHECKOUT), 'checkout.cts': page(CHECKOUT) })).toEqual([]);
  }, 120_000);

  it('refuses a misnamed option, an unknown SDK and a wrong prop type', async () => {
    const errors = await strictTypeErrors(installed.folder, {
      'misnamed.mts': page([
        "const sdk = await loadServiceSDK({ baseUrl: 'https://pay.example.com', sdk: 'elements' });",
        "sdk.config({ mode: 'sandbox', clientID: 'ck_…' });",
        "await loadServiceSDK({ baseUrl: 'https://pay.example.com', sdk: 'element' });",
        "const Express = await loadServiceSDK({ baseUrl: 'https://pay.example.com', sdk: 'express' });",
        "new Express().props = { clientId: 'ck_…', amount: 25, currency: 'USD', mode: 'sandbox' };",
      ]),
    });
    expect(errors).toEqual([
      expect.stringContaining("'clientID' does not exist in type 'SdkConfig'"),
      expect.stringContaining(`Type '"element"' is not assignable to type 'keyof LoadedSdks'`),
      expect.stringContaining("Type 'number' is not assignable to type 'string'"),
    ]);
  }, 120_000);
});
