// @vitest-environment jsdom
import type { SdkManifest } from '@svc/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServiceFrontEndSDK } from './sdk-types';

/**
 * The loader in a DOM (jsdom does not run scripts: a test plays the browser's part, firing the tag's `load` or `error`
 * and installing what the real script installs). The service's manifest is answered by a fetch double.
 */
const BASE = 'https://pay.example.com';
const ELEMENTS = `${BASE}/sdk/elements/1.1.1/sdk.js`;
const INTEGRITY = 'sha384-elementsHashFromTheManifest';
/** The service's manifest, as protocol types it (the loader reads the same type). */
const manifest = {
  files: { elements: { url: ELEMENTS, integrity: INTEGRITY }, express: { url: `${BASE}/sdk/express/1.0.0/sdk.js`, integrity: 'sha384-express' } },
} satisfies SdkManifest;

let fetches: string[];
let load: typeof import('./index').loadServiceSDK;

beforeEach(async () => {
  vi.resetModules(); // each test starts with a page that loaded nothing
  ({ loadServiceSDK: load } = await import('./index'));
  document.head.innerHTML = '';
  delete (window as { ServiceFrontEndSDK?: unknown }).ServiceFrontEndSDK;
  fetches = [];
  vi.stubGlobal('fetch', async (url: string) => {
    fetches.push(url);
    return new Response(JSON.stringify(manifest), { headers: { 'content-type': 'application/json' } });
  });
});
afterEach(() => vi.unstubAllGlobals());

const tags = () => [...document.querySelectorAll('script')];
/** The tag once the loader has added it (after its manifest read). */
const added = () => vi.waitFor(() => tags()[0] ?? Promise.reject(new Error('no script tag yet')));
const fakeSdk = (version: string) => ({ version }) as ServiceFrontEndSDK;

describe('loadServiceSDK', () => {
  it("injects the SDK's script with the SRI hash the service publishes and crossorigin, and resolves to its global", async () => {
    const loading = load({ baseUrl: `${BASE}/`, sdk: 'elements' });
    const script = await added();
    expect(script.src).toBe(ELEMENTS);
    expect(script.integrity).toBe(INTEGRITY);
    expect(script.crossOrigin).toBe('anonymous');
    expect(fetches).toEqual([`${BASE}/sdk/manifest.json`]);
    const sdk = fakeSdk('1.1.1');
    (window as { ServiceFrontEndSDK?: ServiceFrontEndSDK }).ServiceFrontEndSDK = sdk;
    script.dispatchEvent(new Event('load'));
    await expect(loading).resolves.toBe(sdk);
  });

  it('loads once for every call, and takes a pinned hash without asking the service', async () => {
    const first = load({ baseUrl: BASE, sdk: 'elements', integrity: 'sha384-pinned' });
    const second = load({ baseUrl: BASE, sdk: 'elements' });
    expect(second).toBe(first);
    const script = await added();
    expect(script.integrity).toBe('sha384-pinned');
    (window as { ServiceFrontEndSDK?: ServiceFrontEndSDK }).ServiceFrontEndSDK = fakeSdk('1.1.1');
    script.dispatchEvent(new Event('load'));
    await Promise.all([first, second]);
    expect(tags()).toHaveLength(1);
    expect(fetches).toEqual([]);
  });

  it('reuses a script tag already on the page rather than adding another', async () => {
    const existing = document.createElement('script');
    existing.src = ELEMENTS;
    document.head.append(existing);
    const loading = load({ baseUrl: BASE, sdk: 'elements' });
    (window as { ServiceFrontEndSDK?: ServiceFrontEndSDK }).ServiceFrontEndSDK = fakeSdk('1.1.1');
    existing.dispatchEvent(new Event('load'));
    await expect(loading).resolves.toMatchObject({ version: '1.1.1' });
    expect(tags()).toEqual([existing]);
    expect(fetches).toEqual([]);
  });

  it('rejects with the failed address when the script does not load (an SRI mismatch too), and loads again on the next call', async () => {
    const failing = load({ baseUrl: BASE, sdk: 'elements' });
    (await added()).dispatchEvent(new Event('error'));
    await expect(failing).rejects.toThrow(`could not load ${ELEMENTS} (unreachable, blocked, or its SRI hash does not match)`);
    document.head.innerHTML = '';
    const again = load({ baseUrl: BASE, sdk: 'elements' });
    expect(again).not.toBe(failing);
    const script = await added();
    (window as { ServiceFrontEndSDK?: ServiceFrontEndSDK }).ServiceFrontEndSDK = fakeSdk('1.1.1');
    script.dispatchEvent(new Event('load'));
    await expect(again).resolves.toMatchObject({ version: '1.1.1' });
  });

  it('refuses a version the service does not serve, an unreachable manifest, and another SDK already on the page', async () => {
    await expect(load({ baseUrl: BASE, sdk: 'elements', version: '9.9.9' })).rejects.toThrow(
      `${BASE}/sdk/manifest.json lists no elements SDK 9.9.9 (it serves ${ELEMENTS})`,
    );
    await expect(load({ baseUrl: BASE, sdk: 'iframe' })).rejects.toThrow(`${BASE}/sdk/manifest.json lists no iframe SDK 1.0.9`);
    vi.stubGlobal('fetch', async () => new Response('down', { status: 503 }));
    await expect(load({ baseUrl: 'https://other.example.com', sdk: 'elements' })).rejects.toThrow(
      'could not read https://other.example.com/sdk/manifest.json: HTTP 503',
    );
    (window as { ServiceFrontEndSDK?: ServiceFrontEndSDK }).ServiceFrontEndSDK = fakeSdk('1.1.1');
    await expect(load({ baseUrl: BASE, sdk: 'iframe', integrity: 'sha384-x' })).rejects.toThrow('the page already has ServiceFrontEndSDK 1.1.1');
    expect(tags()).toEqual([]);
  });

  it('registers Express and resolves to its element class', async () => {
    const loading = load({ baseUrl: BASE, sdk: 'express' });
    const script = await added();
    expect(script.integrity).toBe('sha384-express');
    class ExpressButtons extends HTMLElement {}
    customElements.define('svc-ecom-sdk-express', ExpressButtons);
    script.dispatchEvent(new Event('load'));
    await expect(loading).resolves.toBe(ExpressButtons);
    // Registered already: no second tag, no second load.
    await expect(load({ baseUrl: BASE, sdk: 'express' })).resolves.toBe(ExpressButtons);
    expect(tags()).toHaveLength(1);
  });
});
