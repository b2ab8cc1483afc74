/**
 * Code only a rare path needs (the 3-D Secure dialog), split off an SDK's bundle into a script of its own: the build
 * (build-kit.mjs, `lazy`) builds it beside the bundle and writes its file name and SRI hash into the bundle
 * (`__SVC_LAZY__`); the service serves it as it serves the bundle (its own path, hash and manifest entry). The bundle
 * loads it the first time it is needed, as a classic script with that integrity (under the page's CSP: no inline
 * script, the service's origin), and the script hands its one value to the element that loaded it (no global).
 * Without a build (the tests run the sources) the source module is imported instead.
 */
declare const __SVC_LAZY__: Record<string, { file: string; integrity: string }> | undefined;

/** The event a lazy script's entry dispatches on its own script element, with its value as `detail`. */
const DELIVERED = 'svc-lazy-script';

const loads = new Map<string, Promise<unknown>>();

/**
 * The value of the lazy script `name` (its built file in the folder `baseUrl`, the SDK's files' folder), loaded once
 * per page; a failed load is tried again on the next call. `fromSource` is the same value from the source module.
 */
export function lazyScript<T>(name: string, baseUrl: string, fromSource: () => Promise<T>): Promise<T> {
  const built = typeof __SVC_LAZY__ === 'undefined' ? undefined : __SVC_LAZY__[name];
  if (!built) return fromSource();
  const src = new URL(built.file, baseUrl).href;
  let load = loads.get(src);
  if (!load) {
    load = loadScript(src, built.integrity).catch((error: unknown) => {
      loads.delete(src);
      throw error;
    });
    loads.set(src, load);
  }
  return load as Promise<T>;
}

function loadScript(src: string, integrity: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    let delivered: { value: unknown } | null = null;
    const deliver = (event: Event): void => {
      delivered = { value: (event as CustomEvent<unknown>).detail };
    };
    const done = (): void => {
      script.removeEventListener(DELIVERED, deliver);
      script.removeEventListener('load', done);
      script.removeEventListener('error', done);
      script.remove();
      if (delivered) resolve(delivered.value);
      else reject(new Error(`${src} could not be loaded`));
    };
    script.addEventListener(DELIVERED, deliver);
    script.addEventListener('load', done);
    script.addEventListener('error', done);
    script.crossOrigin = 'anonymous';
    script.integrity = integrity;
    script.src = src;
    document.head.append(script);
  });
}

/** In a lazy script's entry: hands `value` to the bundle that loaded this script. */
export function deliverLazyScript(value: unknown): void {
  document.currentScript?.dispatchEvent(new CustomEvent(DELIVERED, { detail: value }));
}
