import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SDK_CALLBACK_NAMES, SDK_ERROR_CODES, SDK_VERSIONS, SdkConfigSchema } from '@svc/protocol';
import { customElementsManifest, SDK_SOURCES, sdkDeclarations, type SdkName } from '@svc/sdk-core/types';
import express from 'express';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv, REPO_ROOT } from '../../env';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { sdkAssetsRouter } from './sdk-assets.routes';

/**
 * What each SDK publishes about itself beside its script: its TypeScript types (`sdk.d.ts`) and its elements'
 * `custom-elements.json`, printed from its sources by its build (sdk-core/sdk-types.mjs). The files are printed here as
 * the build prints them, served, and a page's code is type-checked against what was served: the options, callbacks
 * and error codes the runtime knows (protocol's lists) must all be typed, and a misnamed field must not compile.
 */
let database: TestDatabase;
let root: string;
let server: http.Server;
let base: string;
const printed = {} as Record<SdkName, string>;
const manifests = {} as Record<'elements' | 'express', string>;

beforeAll(async () => {
  database = await createTestDatabase();
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'sdk-types-'));
  for (const name of Object.keys(SDK_SOURCES) as SdkName[]) {
    const dist = path.join(root, SDK_SOURCES[name].dir, 'dist');
    await fs.mkdir(dist, { recursive: true });
    printed[name] = await sdkDeclarations(name);
    await fs.writeFile(path.join(dist, 'sdk.d.ts'), printed[name]);
    if (name === 'iframe') continue;
    manifests[name] = await customElementsManifest(name, ['src/components/**/*.ts'], path.relative(path.join(REPO_ROOT, SDK_SOURCES[name].dir), dist));
    await fs.writeFile(path.join(dist, 'custom-elements.json'), manifests[name]);
  }
  const app = express();
  app.use(sdkAssetsRouter({ env: loadEnv({ LOG_LEVEL: 'silent' }), db: database.db }, root));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sdk`;
}, 600_000);

afterAll(async () => {
  server?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
  await database?.drop();
});

/** The errors of a strict type check of `files` (name → source) in a folder of their own. */
async function typeErrors(files: Record<string, string>): Promise<string[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sdk-types-page-'));
  try {
    for (const [name, text] of Object.entries(files)) await fs.writeFile(path.join(dir, name), text);
    const program = ts.createProgram(
      Object.keys(files).map((name) => path.join(dir, name)),
      { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], types: [], skipLibCheck: false },
    );
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

const served = async (url: string) => {
  const res = await fetch(`${base}${url}`);
  return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), text: await res.text() };
};

/** `{ a: true, b: true }` as source: a record that names each key once. */
const eachKey = (keys: readonly string[]) => `{ ${keys.map((key) => `${JSON.stringify(key)}: true`).join(', ')} }`;

describe("the SDKs' types", () => {
  it('are served beside each script as its build printed them from its sources', async () => {
    for (const [name, version] of Object.entries(SDK_VERSIONS) as [SdkName, string][]) {
      const file = await served(`/${name}/${version}/sdk.d.ts`);
      expect(file, name).toMatchObject({ status: 200, type: 'application/typescript; charset=utf-8', cache: 'public, max-age=31536000, immutable' });
      expect(file.text, name).toBe(printed[name]);
      expect(file.text, name).not.toMatch(/^(import|export) .* from /m); // nothing to install beside it
    }
  });

  it("type every option, callback and error code the SDK knows, for Elements' and the iframe SDK's global alike", async () => {
    for (const name of ['elements', 'iframe'] as const) {
      const page = [
        "import type { SdkConfig, SdkErrorCode, ServiceFrontEndSDK as Sdk } from './service-sdk';",
        // Each side names the other's keys exactly: a key missing on either side does not compile.
        `const options: Record<keyof SdkConfig, true> = ${eachKey(Object.keys(SdkConfigSchema.shape))};`,
        `const codes: Record<SdkErrorCode, true> = ${eachKey(SDK_ERROR_CODES)};`,
        `const callbacks: (keyof Sdk)[] = ${JSON.stringify(SDK_CALLBACK_NAMES)};`,
        "ServiceFrontEndSDK.config({ mode: 'sandbox', clientId: 'ck_…', methodType: 'manual_capture', appearance: { theme: 'night' } });",
        'ServiceFrontEndSDK.error(({ code, message }) => console.warn(code satisfies SdkErrorCode, message));',
        'ServiceFrontEndSDK.paymentMethodValidationStatus(({ isValid, errors }) => console.log(isValid, errors.map((e) => e.field)));',
        "ServiceFrontEndSDK.pay((transaction) => console.log(transaction.TransactionNumber, transaction.status), { amount: 2500, currency: 'USD' });",
        'ServiceFrontEndSDK.init(document.body);',
        'export { options, codes, callbacks };',
      ].join('\n');
      expect(await typeErrors({ 'service-sdk.d.ts': printed[name], 'page.ts': page }), name).toEqual([]);
      const misnamed = "ServiceFrontEndSDK.config({ mode: 'sandbox', clientID: 'ck_…' });\nexport {};";
      expect(await typeErrors({ 'service-sdk.d.ts': printed[name], 'page.ts': misnamed }), name).toEqual([
        expect.stringContaining("'clientID' does not exist in type 'SdkConfig'"),
      ]);
    }
  }, 120_000);

  it("type each element by its tag: its properties, its methods and its events' details", async () => {
    const elements = [
      "const widget = document.createElement('svc-ecom-sdk-elements');",
      "widget.clientId = 'ck_…';",
      "widget.paymentMethods = ['card', 'paypal'];",
      "widget.addEventListener('svc-payment-success', (event) => console.log(event.detail.transaction.TransactionNumber));",
      "widget.addEventListener('svc-error', (event) => console.log(event.detail.code));",
      "void widget.pay({ amount: 2500, currency: 'USD' }).then((transaction) => transaction.amountCents);",
      'export {};',
    ].join('\n');
    expect(await typeErrors({ 'service-sdk.d.ts': printed.elements, 'page.ts': elements })).toEqual([]);
    const expressPage = [
      "const buttons = document.querySelector('svc-ecom-sdk-express')!;",
      "buttons.props = { clientId: 'ck_…', amount: '25.00', currency: 'USD', mode: 'sandbox', onPay: (data) => console.log(data.transactionNumber) };",
      "buttons.addEventListener('svc-ready', (event) => console.log(event.detail.paypal.canPay));",
      'export {};',
    ].join('\n');
    expect(await typeErrors({ 'service-sdk.d.ts': printed.express, 'page.ts': expressPage })).toEqual([]);
    const misnamed = expressPage.replace('onPay:', 'onPayment:');
    expect(await typeErrors({ 'service-sdk.d.ts': printed.express, 'page.ts': misnamed })).toContainEqual(
      expect.stringContaining("'onPayment' does not exist in type 'ExpressProps'"),
    );
  }, 120_000);
});

describe("the elements' custom-elements.json", () => {
  it('is served beside each SDK with its element: tag, properties and events', async () => {
    for (const [name, tag, events, members] of [
      ['elements', 'svc-ecom-sdk-elements', ['svc-ready', 'svc-payment-success', 'svc-error'], ['clientId', 'appearance', 'pay']],
      ['express', 'svc-ecom-sdk-express', ['svc-ready', 'svc-pay', 'svc-error'], ['props', 'apiBase']],
    ] as const) {
      const file = await served(`/${name}/${SDK_VERSIONS[name]}/custom-elements.json`);
      expect(file, name).toMatchObject({ status: 200, type: 'application/json; charset=utf-8' });
      expect(file.text).toBe(manifests[name]);
      const manifest = JSON.parse(file.text) as {
        modules: { declarations?: { tagName?: string; events?: { name: string }[]; members?: { name: string }[] }[] }[];
      };
      const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === tag);
      expect(
        element?.events?.map((e) => e.name),
        name,
      ).toEqual(expect.arrayContaining([...events]));
      expect(
        element?.members?.map((m) => m.name),
        name,
      ).toEqual(expect.arrayContaining([...members]));
    }
  });
});
