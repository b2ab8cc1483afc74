/** Small waiting and messaging helpers for the browser tests. */

export async function waitFor<T>(probe: () => T | null | undefined | false, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The other origin the test server answers on (127.0.0.1 ↔ localhost). */
export function otherOrigin(): string {
  const url = new URL(location.origin);
  url.hostname = url.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
  return url.origin;
}

let forgeries = 0;
/**
 * Loads test/pages/forger.html from `origin` in a hidden iframe; it posts `message` to its parent (frame undefined) or
 * to `parent.frames[frame]`, then reports back. Resolves once it did, plus a moment for the forged message to land.
 */
export async function forge(message: unknown, options: { origin?: string; frame?: number; targetOrigin?: string } = {}): Promise<void> {
  forgeries += 1;
  const id = `forgery-${forgeries}`;
  const hash = new URLSearchParams({ id, message: JSON.stringify(message), targetOrigin: options.targetOrigin ?? '*' });
  if (options.frame !== undefined) hash.set('frame', String(options.frame));
  const iframe = document.createElement('iframe');
  iframe.hidden = true;
  iframe.src = `${options.origin ?? location.origin}/sdk-core/src/testing/forger.html#${hash}`;
  const done = new Promise<void>((resolve) => {
    const onMessage = (event: MessageEvent) => {
      if ((event.data as { forgerDone?: string } | null)?.forgerDone !== id) return;
      window.removeEventListener('message', onMessage);
      resolve();
    };
    window.addEventListener('message', onMessage);
  });
  document.body.append(iframe);
  await done;
  await sleep(50);
  iframe.remove();
}

/** Sends a message to `target` from inside `from` (a same-origin window), so event.source is `from`. */
export function postFrom(from: Window, target: Window, message: unknown, targetOrigin: string): void {
  const post = new (from as Window & { Function: FunctionConstructor }).Function('target', 'message', 'origin', 'target.postMessage(message, origin)');
  post(target, message, targetOrigin);
}
