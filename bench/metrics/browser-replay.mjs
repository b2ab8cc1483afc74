// The reference of a time to pay: the HTTP requests a measured payment made (recorded from Playwright's request
// events between the pay click and the callback), sent again with plain `fetch` from a page of the origin that sent
// them (same-origin, or cross-origin with the same CORS preflights), in the same order and with the same parallelism
// (a request waits for those that had ended before it started), on a fresh session or transaction. Timed in the page,
// from the first request to the last response's body. What the SDK adds beyond the reference is its own work.
import { randomUUID } from 'node:crypto';

/** Request headers a page cannot or need not set itself (the browser sets them the same way for both). */
const BROWSER_HEADERS = /^(host|origin|referer|user-agent|connection|content-length|accept-encoding|accept-language|cookie|sec-.*)$/;

/**
 * @typedef {import('./browser-run.mjs').RecordedRequest} RecordedRequest
 * @typedef {{ method: string, url: string, headers: Record<string, string>, body: string | null, status: number, after: number[] }} PlannedRequest
 */

const isFetch = (r) => r.resourceType === 'fetch' || r.resourceType === 'xhr';

/**
 * The requests of the payment: the pages' fetches the harness heard of between the start of the shopper's payment
 * (typing the card, the clicks) and the callback (on the harness's clock, so the browser's clocks do not matter).
 */
export function paymentRequests(requests, payStartedAt, paidSeenAt) {
  return requests.filter((r) => isFetch(r) && r.seenAt >= payStartedAt && r.seenAt <= paidSeenAt);
}

/** The requests of the load that created the state the payment uses (the widget's session: its POSTs). */
export function setupRequests(requests, payStartedAt) {
  return requests.filter((r) => r.method === 'POST' && isFetch(r) && r.seenAt < payStartedAt);
}

/** Every string of `before` whose counterpart in `after` (same JSON path) differs: an id or a token to swap. */
function changedValues(before, after, into = new Map()) {
  if (typeof before === 'string' && typeof after === 'string') {
    if (before !== after && before.length >= 8) into.set(before, after);
  } else if (before && after && typeof before === 'object' && typeof after === 'object') {
    for (const key of Object.keys(before)) changedValues(before[key], after[key], into);
  }
  return into;
}

const swap = (text, map) => {
  let out = text;
  for (const [from, to] of map) out = out.split(from).join(to);
  return out;
};

/**
 * The plan of a replay: the recorded payment requests with every id of the old session or transaction swapped for
 * the new one's (`swaps`), a fresh idempotency key for each recorded one, and what each must wait for.
 * @param {RecordedRequest[]} recorded
 * @param {Map<string, string>} swaps
 * @returns {PlannedRequest[]}
 */
export function planReplay(recorded, swaps) {
  const keys = new Map(swaps);
  return recorded.map((r, i) => {
    /** @type {Record<string, string>} */
    const headers = {};
    for (const [name, value] of Object.entries(r.headers)) {
      if (BROWSER_HEADERS.test(name) || name.startsWith(':')) continue;
      if (name === 'idempotency-key') {
        const key = keys.get(value) ?? randomUUID();
        keys.set(value, key);
        headers[name] = key;
      } else headers[name] = swap(value, swaps);
    }
    // Same parallelism: this one waits for every earlier request that had ended before it started.
    const after = recorded.slice(0, i).flatMap((earlier, j) => (earlier.endMs <= r.startMs ? [j] : []));
    return { method: r.method, url: swap(r.url, swaps), headers, body: r.body === null ? null : swap(r.body, swaps), status: r.status, after };
  });
}

/**
 * Sends the state-creating requests of the load again from here (untimed), as the page sent them (its Origin
 * included), and returns the ids to swap: the old answers' values against the new ones'.
 * @param {RecordedRequest[]} setup
 */
export async function freshSession(setup) {
  const swaps = new Map();
  for (const r of setup) {
    /** @type {Record<string, string>} */
    const headers = {};
    for (const [name, value] of Object.entries(r.headers)) if (!/^(host|content-length|connection|accept-encoding|:.*)$/.test(name)) headers[name] = value;
    const response = await fetch(swap(r.url, swaps), { method: r.method, headers, body: r.body === null ? undefined : swap(r.body, swaps) });
    const text = await response.text();
    if (response.status !== r.status)
      throw new Error(`the replay's set-up ${r.method} ${new URL(r.url).pathname} answered ${response.status}, not ${r.status}: ${text.slice(0, 200)}`);
    if (r.responseBody) changedValues(JSON.parse(r.responseBody), JSON.parse(text), swaps);
  }
  return swaps;
}

/**
 * Runs a plan in `page` (a document of the origin that sent the requests) and returns its time in milliseconds.
 * @param {import('playwright-core').Page} page
 * @param {PlannedRequest[]} plan
 */
export async function replayInPage(page, plan) {
  const result = await page.evaluate(async (steps) => {
    const started = [];
    const statuses = [];
    const t0 = performance.now();
    const run = (i) => {
      started[i] ??= (async () => {
        await Promise.all(steps[i].after.map(run));
        const step = steps[i];
        const response = await fetch(step.url, {
          method: step.method,
          headers: step.headers,
          body: step.body ?? undefined,
          credentials: 'omit',
          cache: 'no-store',
        });
        await response.arrayBuffer();
        statuses[i] = response.status;
      })();
      return started[i];
    };
    await Promise.all(steps.map((_, i) => run(i)));
    return { ms: performance.now() - t0, statuses };
  }, plan);
  plan.forEach((step, i) => {
    if (result.statuses[i] !== step.status)
      throw new Error(
        `the replayed ${step.method} ${new URL(step.url).pathname} answered ${result.statuses[i]}, not ${step.status} as in the measured payment`,
      );
  });
  return result.ms;
}
