import { realpath, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, strictTypeErrors } from '../../scripts/packed-package.mjs';

/**
 * @svc/react as a developer gets it: packed, installed from its tarball into an empty folder beside React and its types
 * (copied from this machine, offline), and a strict TypeScript checkout page checked against its types.
 */
let installed: Awaited<ReturnType<typeof installPacked>>;
const packageDir = path.join(import.meta.dirname, '..');

beforeAll(async () => {
  const modules = path.join(packageDir, 'node_modules');
  const types = await realpath(path.join(modules, '@types/react'));
  installed = await installPacked(packageDir, [await realpath(path.join(modules, 'react')), types, path.join(types, '../../csstype')]);
}, 300_000);
afterAll(() => installed?.remove());

const page = (body: string[]) =>
  [
    "import { useRef } from 'react';",
    "import { ServiceElements, ServiceExpressCheckout, type ServiceElementsHandle, type Transaction } from '@svc/react';",
    'export function Checkout({ commit }: { commit: (transaction: Transaction) => void }) {',
    '  const widget = useRef<ServiceElementsHandle>(null);',
    ...body.map((line) => `  ${line}`),
    '}',
  ].join('\n');

const CHECKOUT = [
  "const pay = () => widget.current?.pay({ amount: 2500, currency: 'USD' }).then(commit);",
  'return (',
  '  <>',
  '    <ServiceElements ref={widget} baseUrl="https://pay.example.com" clientId="ck_…" mode="sandbox" appearance={{ theme: \'night\' }}',
  '      onValidationStatus={({ isValid }) => console.log(isValid)} onError={({ code }) => console.warn(code)} onPaymentSuccess={({ transaction }) => commit(transaction)} />',
  '    <button onClick={pay}>Pay</button>',
  '    <ServiceExpressCheckout baseUrl="https://pay.example.com" clientId="ck_…" amount="25.00" currency="USD" mode="sandbox" wallets={[\'paypal\']}',
  '      onPay={({ transactionNumber, method }) => console.log(transactionNumber, method)} />',
  '  </>',
  ');',
];

describe('the @svc/react tarball', () => {
  it('installs into an empty folder with nothing but itself and React', async () => {
    expect((await readdir(path.join(installed.folder, 'node_modules'))).sort()).toEqual(['.package-lock.json', '@svc', '@types', 'csstype', 'react']);
    const manifest = JSON.parse(await readFile(path.join(installed.folder, 'node_modules/@svc/react/package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.peerDependencies).toEqual({ react: '^18.0.0 || ^19.0.0' });
  });

  it('types a strict checkout page: the props, the events and the ref compile', async () => {
    expect(await strictTypeErrors(installed.folder, { 'checkout.tsx': page(CHECKOUT) }, ['--jsx', 'react-jsx'])).toEqual([]);
  }, 120_000);

  it('refuses a misnamed prop, a wrong mode and an event detail that is not there', async () => {
    const misnamed = CHECKOUT.map((line) =>
      line
        .replace('clientId="ck_…" mode="sandbox" appearance', 'clientID="ck_…" mode="sandbox" appearance')
        .replace('amount="25.00" currency="USD" mode="sandbox"', 'amount="25.00" currency="USD" mode="live"')
        .replace('({ transactionNumber, method })', '({ transactionNumber, wallet: method })'),
    );
    const errors = await strictTypeErrors(installed.folder, { 'checkout.tsx': page(misnamed) }, ['--jsx', 'react-jsx']);
    expect(errors).toEqual([
      expect.stringMatching(/error TS2322: .*clientID: string.* is not assignable to type 'IntrinsicAttributes & ServiceElementsProps/),
      expect.stringContaining(`Type '"live"' is not assignable to type 'SdkMode'`),
      expect.stringContaining("Property 'wallet' does not exist on type 'ExpressPayData'"),
    ]);
  }, 120_000);
});
