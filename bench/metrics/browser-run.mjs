// One page load of metric 10 in a fresh browser context (a cold cache, no connections): the time to ready from the
// probe's reports, then, where asked, the shopper's payment and its time to pay; and, where asked, every request of
// the load and of the payment (the waterfall of the report, and what the reference payment replays).
import { SANDBOX_3DS_CARDS } from '../../protocol/src/sandbox.ts';
import { installProbe } from './browser-probe.mjs';

const READY_TIMEOUT_MS = 30_000;
const PAY_TIMEOUT_MS = 30_000;
export const TEST_CARD = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
/** The sandbox's frictionless 3-D Secure card: authenticated without the consumer, approved at once. */
export const FRICTIONLESS_3DS_CARD = {
  ...TEST_CARD,
  number: (SANDBOX_3DS_CARDS.find((c) => c.threeDSecure === 'frictionless')?.number ?? '').replace(/(\d{4})(?=\d)/g, '$1 '),
};

/**
 * @typedef {{ kind: string, t: number, top: boolean, origin: string, name?: string, detail?: any }} ProbeEvent
 * @typedef {{ method: string, url: string, resourceType: string, frameOrigin: string, headers: Record<string, string>,
 *   body: string | null, startMs: number, endMs: number, status: number, responseBytes: number, responseBody?: string, seenAt: number }} RecordedRequest
 * `startMs`, `endMs`: the browser's times from the top page's navigation start; `seenAt`: when the harness heard of it
 * (performance.now() here), to tell the load's requests from the payment's.
 */

/** Resolves when `test()` holds after an event, rejects after `ms` with what was seen. */
function eventWaiter() {
  const waiting = new Set();
  return {
    wake: () => waiting.forEach((w) => w()),
    until: (test, ms, what) =>
      new Promise((resolve, reject) => {
        const check = () => {
          let value;
          try {
            value = test();
          } catch (error) {
            value = error;
          }
          if (value === undefined) return;
          clearTimeout(timer);
          waiting.delete(check);
          if (value instanceof Error) reject(value);
          else resolve(value);
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`${what}: nothing after ${ms / 1000} s`));
        }, ms);
        waiting.add(check);
        check();
      }),
  };
}

/** Records every request of a context with its timing and size, relative to `zero()` (the top page's time origin). */
function recordRequests(context, zero) {
  /** @type {Promise<RecordedRequest | null>[]} */
  const pending = [];
  // When the harness heard of each request, on its own clock (the order against its own steps: the pay click).
  const seen = new WeakMap();
  context.on('request', (r) => seen.set(r, performance.now()));
  const onDone = (request, failed) =>
    pending.push(
      (async () => {
        const timing = request.timing();
        const response = failed ? null : await request.response().catch(() => null);
        const sizes = failed ? null : await request.sizes().catch(() => null);
        const contentType = response ? ((await response.allHeaders().catch(() => ({})))['content-type'] ?? '') : '';
        const responseBody = response && contentType.includes('json') ? await response.text().catch(() => undefined) : undefined;
        const frame = (() => {
          try {
            return new URL(request.frame().url()).origin;
          } catch {
            return '';
          }
        })();
        return {
          method: request.method(),
          url: request.url(),
          resourceType: request.resourceType(),
          frameOrigin: frame,
          headers: await request.allHeaders().catch(() => request.headers()),
          body: request.postData(),
          startMs: timing.startTime - zero(),
          endMs: timing.responseEnd >= 0 ? timing.startTime + timing.responseEnd - zero() : NaN,
          status: response?.status() ?? 0,
          responseBytes: sizes ? sizes.responseBodySize : NaN,
          responseBody,
          seenAt: seen.get(request) ?? NaN,
        };
      })().catch(() => null),
    );
  context.on('requestfinished', (r) => onDone(r, false));
  context.on('requestfailed', (r) => onDone(r, true));
  return async () => (await Promise.all(pending)).filter((r) => r !== null).sort((a, b) => a.startMs - b.startMs);
}

/**
 * Loads `url` in a fresh context of `browser` and waits until the probe saw the field ready (and its frame visible);
 * then, with `pay`, pays as the shopper and waits for the payment's callback or confirmation.
 * @param {import('playwright-core').Browser} browser
 * @param {{ url: string, targets: import('./browser-probe.mjs').ProbeTargets, pay?: (page: import('playwright-core').Page) => Promise<void>, record?: boolean, locale?: string }} options
 */
export async function loadOnce(browser, { url, targets, pay, record = false, locale = 'en-US' }) {
  const context = await browser.newContext({ locale, viewport: { width: 1000, height: 800 } });
  try {
    /** @type {ProbeEvent[]} */
    const events = [];
    const waiter = eventWaiter();
    await installProbe(context, targets, (event) => {
      events.push(event);
      waiter.wake();
    });
    const origin = new URL(url).origin;
    const zeroEvent = () => events.findLast((e) => e.kind === 'origin' && e.top && e.origin === origin);
    const zero = () => zeroEvent()?.t ?? NaN;
    const requests = record ? recordRequests(context, zero) : null;
    const page = await context.newPage();
    const sockets = [];
    if (record) page.on('websocket', (ws) => sockets.push({ url: ws.url(), atMs: Date.now() - zero() }));
    const failure = () => events.find((e) => e.kind === 'paid' && e.detail?.error);
    await page.goto(url, { waitUntil: 'commit' });
    const readyAt = await waiter.until(
      () => {
        const bad = failure();
        if (bad) throw new Error(`the SDK reported ${bad.detail.error} while loading ${url}`);
        const field = events.find((e) => e.kind === 'field');
        const frame = targets.frame ? events.find((e) => e.kind === 'frame') : null;
        if (!field || (targets.frame && !frame) || !zeroEvent()) return undefined;
        return Math.max(field.t, frame?.t ?? 0);
      },
      READY_TIMEOUT_MS,
      `${url}: the field ready`,
    );
    const result = { readyMs: readyAt - zero(), payMs: NaN, paid: /** @type {any} */ (null), clickMs: NaN, paidMs: NaN, payStartedAt: NaN, paidSeenAt: NaN };
    if (pay) {
      result.payStartedAt = performance.now();
      await pay(page);
      const paid = await waiter.until(
        () => {
          const bad = failure();
          if (bad) throw new Error(`the SDK reported ${bad.detail.error} while paying on ${url}`);
          return events.find((e) => e.kind === 'paid' || e.kind === 'done');
        },
        PAY_TIMEOUT_MS,
        `${url}: the payment's callback or confirmation`,
      );
      result.paidSeenAt = performance.now();
      const click = events.findLast((e) => e.kind === 'click' && e.t <= paid.t);
      if (!click) throw new Error(`${url}: paid without a click`);
      Object.assign(result, { payMs: paid.t - click.t, paid: paid.detail ?? null, clickMs: click.t - zero(), paidMs: paid.t - zero() });
    }
    // The documents' marks up to the payment: the top page's and each frame's (by origin), from its navigation start.
    const marks = events
      .filter((e) => e.kind === 'mark' && e.origin !== 'null' && !(e.t > readyAt + 5000))
      .map((e) => ({ name: e.name ?? '', where: e.top ? 'page' : `frame ${e.origin}`, atMs: e.t - zero() }));
    return { ...result, requests: requests ? await requests() : null, sockets, marks };
  } finally {
    await context.close();
  }
}
