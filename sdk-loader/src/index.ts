/**
 * `@svc/sdk-loader`: loads one of the payment service's browser SDKs from the service itself, as `loadStripe` of
 * `@stripe/stripe-js` does, and resolves to its typed API. The script tag gets the file's Subresource Integrity hash
 * (the one you pin, or the one the service publishes in `/sdk/manifest.json`) and `crossorigin="anonymous"`; a tag
 * already on the page is reused, and every call for the same file shares one load. A failed load rejects and may be
 * tried again.
 */
import type { SdkManifest } from '@svc/protocol';
import { SDK_VERSIONS } from '@svc/protocol/constants';
import type { ServiceFrontEndSDK, SvcEcomSdkExpressElement } from './sdk-types';

export type * from './sdk-types';

/** An element's class, as `customElements.get` gives it. */
export interface ElementClass<E extends HTMLElement> {
  new (): E;
  readonly prototype: E;
}

/** What each SDK resolves to: the `ServiceFrontEndSDK` global, or the class of the element it registered. */
export interface LoadedSdks {
  elements: ServiceFrontEndSDK;
  iframe: ServiceFrontEndSDK;
  express: ElementClass<SvcEcomSdkExpressElement>;
}

export type SdkName = keyof LoadedSdks;

export interface LoadServiceSdkOptions<S extends SdkName = SdkName> {
  /** The payment service's address, e.g. `https://pay.example.com`: the script comes from `<baseUrl>/sdk/<sdk>/<version>/sdk.js`. */
  baseUrl: string;
  /** `elements` (the widget and the `ServiceFrontEndSDK` global), `iframe` (deprecated) or `express` (the wallet buttons). */
  sdk: S;
  /** The SDK's version; by default the one this package was made for (Elements 1.1.1, iframe 1.0.9, Express 1.0.0). */
  version?: string;
  /**
   * The script's SRI hash (`sha384-…`) as you pinned it after testing that version; by default the one the service
   * publishes for it in `/sdk/manifest.json`.
   */
  integrity?: string;
}

/** The versions this package was made for. */
export const DEFAULT_SDK_VERSIONS: Readonly<Record<SdkName, string>> = SDK_VERSIONS;

const TAGS = { express: 'svc-ecom-sdk-express' } as const;
const loads = new Map<string, Promise<unknown>>();

/**
 * Loads the SDK once per page and resolves to its API: `ServiceFrontEndSDK` for `elements` and `iframe`, the element's
 * class for `express` (`<svc-ecom-sdk-express>` is registered). Rejects with an Error that says what failed: the
 * manifest, the script (network, SRI mismatch, blocked) or another version of the SDK already on the page.
 */
export function loadServiceSDK<S extends SdkName>(options: LoadServiceSdkOptions<S>): Promise<LoadedSdks[S]> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const version = options.version ?? SDK_VERSIONS[options.sdk];
  const src = `${base}/sdk/${options.sdk}/${version}/sdk.js`;
  let load = loads.get(src);
  if (!load) {
    load = loadScript(src, options.sdk, version, base, options.integrity);
    loads.set(src, load);
    load.catch(() => loads.delete(src));
  }
  return load as Promise<LoadedSdks[S]>;
}

function installed(sdk: SdkName, version: string, src: string): unknown {
  if (sdk === 'express') return customElements.get(TAGS.express);
  const global = (window as { ServiceFrontEndSDK?: ServiceFrontEndSDK }).ServiceFrontEndSDK;
  if (global && global.version !== version) throw new Error(`${src}: the page already has ServiceFrontEndSDK ${global.version}; load one SDK per page`);
  return global;
}

async function loadScript(src: string, sdk: SdkName, version: string, base: string, integrity: string | undefined): Promise<unknown> {
  if (typeof document === 'undefined') throw new Error('loadServiceSDK runs in a browser: call it from the page, not on the server');
  const ready = installed(sdk, version, src);
  if (ready) return ready;
  let script = [...document.scripts].find((tag) => tag.src === src);
  if (!script) {
    script = document.createElement('script');
    script.integrity = integrity ?? (await publishedIntegrity(base, sdk, version));
    script.crossOrigin = 'anonymous';
    script.src = src;
    document.head.append(script);
  }
  await settled(script, src);
  const loaded = installed(sdk, version, src);
  if (!loaded) throw new Error(`${src} loaded but installed no ${sdk} SDK`);
  return loaded;
}

/** Resolves on the tag's load, rejects on its error (a network failure, an SRI mismatch, a blocked request). */
function settled(script: HTMLScriptElement, src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (event: Event) => {
      script.removeEventListener('load', done);
      script.removeEventListener('error', done);
      if (event.type === 'load') resolve();
      else reject(new Error(`could not load ${src} (unreachable, blocked, or its SRI hash does not match)`));
    };
    script.addEventListener('load', done);
    script.addEventListener('error', done);
  });
}

/** The file's SRI hash from the service's `/sdk/manifest.json`, refusing a manifest of another version. */
async function publishedIntegrity(base: string, sdk: SdkName, version: string): Promise<string> {
  const url = `${base}/sdk/manifest.json`;
  // Not checked with protocol's schema (zod stays out of this 1 KB script): whatever is missing is refused below.
  let manifest: Partial<SdkManifest>;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    manifest = (await response.json()) as typeof manifest;
  } catch (error) {
    throw new Error(`could not read ${url}: ${(error as Error).message}`, { cause: error });
  }
  const file = manifest.files?.[sdk];
  if (!file?.url.endsWith(`/sdk/${sdk}/${version}/sdk.js`)) throw new Error(`${url} lists no ${sdk} SDK ${version}${file ? ` (it serves ${file.url})` : ''}`);
  return file.integrity;
}
