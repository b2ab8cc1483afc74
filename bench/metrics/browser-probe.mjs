// The in-browser half of metric 10: a script Playwright adds to every frame of a context (cross-origin frames too)
// before any of the page's own scripts run. It watches, with a MutationObserver and on every animation frame, for
// the element the shopper needs (the card number field, or the first wallet button) to be present, visible, enabled
// and editable, and for the frame that holds it to be visible in the top page, and takes the time of the next
// animation frame after that, or of the document's first paint if that comes later (before it, nothing is on the
// screen); it notes every click and, on the hosted page, the confirmation (seen by the MutationObserver alone: no
// frame is asked for while the shopper pays). Each event goes to the harness with its time in the browser
// (`performance.timeOrigin + performance.now()`, milliseconds since the epoch), so nothing is timed by polling from
// outside.

/* global window, document, location, innerWidth, innerHeight, HTMLInputElement, requestAnimationFrame, MutationObserver -- probe() runs in the browser */

/** The binding the probe (and the bench's merchant pages) report through. */
export const REPORT_BINDING = '__benchReport';

/**
 * @typedef {{ field: string, frame: string | null, done: string | null }} ProbeTargets
 * `field`: a CSS selector for the element to wait for, searched in every frame and through open shadow roots;
 * `frame`: the selector of the iframe that holds it, in the top page (null: the field is in the top page);
 * `done`: the selector of the confirmation shown once paid (null: the merchant page reports the payment itself).
 */

/**
 * Runs in the browser. Kept free of outside references: Playwright serialises its source.
 * @param {ProbeTargets & { binding: string }} targets
 */
function probe(targets) {
  const now = () => performance.timeOrigin + performance.now();
  const top = window === window.top;
  const queue = [];
  const report = (event) => {
    queue.push({ ...event, top, origin: location.origin });
    const send = window[targets.binding];
    if (typeof send !== 'function') return;
    while (queue.length > 0) send(queue.shift());
  };
  if (top) report({ kind: 'origin', t: performance.timeOrigin });

  /** The first element matching `selector` in the document or in any open shadow root, in document order. */
  const deepQuery = (root, selector) => {
    const found = root.querySelector(selector);
    if (found) return found;
    for (const element of root.querySelectorAll('*')) {
      if (element.shadowRoot) {
        const inner = deepQuery(element.shadowRoot, selector);
        if (inner) return inner;
      }
    }
    return null;
  };
  /** The innermost element at a point, through open shadow roots. */
  const deepHit = (x, y) => {
    let hit = document.elementFromPoint(x, y);
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  };
  const visible = (element) => {
    if (!element.isConnected) return false;
    if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const box = element.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) return false;
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    // Not covered (by a spinner, an overlay): what is at its centre is the element or inside it. Below the fold
    // counts as visible (the shopper scrolls).
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return true;
    const hit = deepHit(x, y);
    return hit === element || element.contains(hit) || Boolean(hit && element.shadowRoot?.contains(hit));
  };
  const editable = (element) =>
    !element.matches(':disabled') &&
    !(element instanceof HTMLInputElement && element.readOnly) &&
    element.getAttribute('aria-disabled') !== 'true' &&
    !element.closest('[inert]');

  const watches = [
    { kind: 'field', selector: targets.field, ready: (e) => visible(e) && editable(e) },
    ...(top && targets.frame ? [{ kind: 'frame', selector: targets.frame, ready: visible }] : []),
    ...(top && targets.done ? [{ kind: 'done', selector: targets.done, ready: visible }] : []),
  ];
  let observer = null;
  const check = () => {
    for (const watch of watches) {
      if (watch.seen) continue;
      const element = deepQuery(document, watch.selector);
      if (element && watch.ready(element)) {
        // Ready in the document now; on the screen with the next frame that paints, and not before the document's
        // first paint (Chromium runs animation frames while a style sheet still holds the first paint back).
        watch.seen = true;
        requestAnimationFrame(() => {
          const at = now();
          void firstPaint.then((painted) => report({ kind: watch.kind, t: Math.max(at, painted) }));
        });
      }
    }
    if (watches.every((w) => w.seen)) observer?.disconnect();
    return watches.every((w) => w.seen);
  };
  // Animation frames are asked for only until the field (and its frame) is ready: the confirmation is a change of the
  // document, which the observer sees. Asking for one every frame keeps Chromium making 60 frames a second; the hosted
  // page did so through its whole payment, which slowed the server's share of it on a busy machine (bench/findings.md,
  // "The server's share").
  const polled = watches.filter((w) => w.kind !== 'done');
  const onFrame = () => {
    if (!check() && !polled.every((w) => w.seen)) requestAnimationFrame(onFrame);
  };
  const start = () => {
    observer = new MutationObserver(check);
    observer.observe(document, { subtree: true, childList: true, attributes: true });
    onFrame();
  };
  if (document.documentElement) start();
  else document.addEventListener('readystatechange', start, { once: true });

  /** @type {(t: number) => void} */
  let painted = () => undefined;
  /** The document's first paint (its time), once it happened. */
  const firstPaint = new Promise((resolve) => (painted = resolve));
  new PerformanceObserver((list) => {
    const entry = list.getEntries().find((e) => e.name === 'first-paint');
    if (entry) painted(performance.timeOrigin + entry.startTime);
  }).observe({ type: 'paint', buffered: true });

  // What the waterfall shows beside the requests: each document's DOMContentLoaded and its paints (first paint,
  // first contentful paint), so the reader sees whether the field waited for a script or for a paint.
  document.addEventListener('DOMContentLoaded', () => report({ kind: 'mark', name: 'DOMContentLoaded', t: now() }), { once: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) report({ kind: 'mark', name: entry.name, t: performance.timeOrigin + entry.startTime });
  }).observe({ type: 'paint', buffered: true });

  // Every trusted click, with the time the browser gave the event (its input time, not when a listener ran).
  window.addEventListener('click', (event) => event.isTrusted && report({ kind: 'click', t: performance.timeOrigin + event.timeStamp }), true);
  // The merchant pages report their payment callbacks through the same binding, with this helper.
  /** @type {any} */ (window).__benchPaid = (detail) => report({ kind: 'paid', t: now(), detail });
}

/**
 * Installs the probe and its binding in a fresh context; `onEvent` gets every report with the frame it came from.
 * @param {import('playwright-core').BrowserContext} context
 * @param {ProbeTargets} targets
 * @param {(event: { kind: string, t: number, top: boolean, origin: string, detail?: unknown }) => void} onEvent
 */
export async function installProbe(context, targets, onEvent) {
  await context.exposeBinding(REPORT_BINDING, (_source, event) => onEvent(event));
  await context.addInitScript(probe, { ...targets, binding: REPORT_BINDING });
}
