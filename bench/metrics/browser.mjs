// Metric 10: the shopper's side in the browser. Headless Chromium (playwright-core, the system's Chromium) loads each
// surface (Elements' card frame, the deprecated iframe SDK, Express's first wallet button, the hosted payment page)
// in a fresh context (a cold cache) and the probe in the page times, from the top page's navigation start, when the
// field the shopper needs accepts input (time to ready); the shopper then pays with the sandbox's approving card or
// wallet and the page times the click to the SDK's callback or the page's confirmation (time to pay). In the same
// rounds, alternating with those runs: each surface's reference page (the same bytes, nothing run: browser-pages.mjs)
// and the replay of each payment's HTTP requests on a fresh session (browser-replay.mjs); and, for Elements and the
// hosted page, the time to ready in Hebrew (a catalogue fetched) beside English, and the time to pay with the
// sandbox's frictionless 3-D Secure card beside the approving card's.
import { endpointRequest } from '../../protocol/src/endpoint-path.ts';
import { Latencies } from '../latencies.mjs';
import { findChromium, launchChromium } from './browser-launch.mjs';
import { SURFACES, startBenchPages } from './browser-pages.mjs';
import { freshSession, paymentRequests, planReplay, replayInPage, setupRequests } from './browser-replay.mjs';
import { FRICTIONLESS_3DS_CARD, loadOnce } from './browser-run.mjs';
import { SURFACE_SPECS } from './browser-surfaces.mjs';

/**
 * @typedef {import('./browser-pages.mjs').Surface} Surface
 * @typedef {{ path: string, type: string, startMs: number, endMs: number, bytes: number, status: number }} WaterfallRow
 */

const summary = (l) => ({ count: l.count, p50: l.percentile(50), p95: l.percentile(95), max: l.percentile(100) });

/** The service's answers the harness needs, as the merchant's backend gets them (its API key). */
export function merchantApi(serviceUrl, apiKey) {
  return async (path, body) => {
    const response = await fetch(new URL(path, serviceUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text);
  };
}

/** A transaction as the merchant's backend reads it (GET /transactions/:n). */
async function merchantTransaction(serviceUrl, apiKey, transactionNumber) {
  const { method, path } = endpointRequest('getTransaction', { transactionNumber });
  const response = await fetch(new URL(path, serviceUrl), { method, headers: { authorization: `Bearer ${apiKey}` } });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/** A URL's path without the run's random ids and query (what the report shows). */
function shownPath(url, serviceUrl, pagesPort) {
  const u = new URL(url);
  const where =
    u.origin === new URL(serviceUrl).origin ? 'service' : u.port === String(pagesPort) ? (u.hostname === 'localhost' ? 'merchant' : 'reference') : u.host;
  const path = u.pathname
    .replace(/\/pay\/[^/]+/, '/pay/{linkId}')
    .replace(/\/sessions\/[^/]+/, '/sessions/{sessionId}')
    .replace(/\/checkout\/(\w+)\/\w+/, '/checkout/$1/{lang}');
  return `${where} ${path}`;
}

/**
 * @param {{ server: { url: string }, merchant: { apiKey: string }, config: { runs: number }, log: (line: string) => void }} context
 */
export async function measureBrowser({ server, merchant, config, log }) {
  const chromium = findChromium();
  if ('reason' in chromium) return { measured: false, reason: chromium.reason };
  const api = merchantApi(server.url, merchant.apiKey);
  /** A new pending transaction of 12.50 USD (the merchant's backend creates it); its page's path and ids. */
  const newTransaction = async () => {
    const created = await api('/transactions/init', { amount: 12.5, currency: 'USD', products: [{ name: 'Lamp', quantity: 1, amount: 12.5 }] });
    const path = new URL(created.transactionPage.qrURL).pathname;
    return { path, linkId: path.split('/').pop() ?? '', transactionNumber: created.TransactionNumber };
  };
  const pages = await startBenchPages({
    serviceUrl: server.url,
    samplePayPath: (await newTransaction()).path,
    // A client ID of the bench merchant that allows the merchant pages' origin, as a shop's own would.
    clientIdFor: async (origin) => (await api('/credentials', { kind: 'client', allowedOrigins: [origin] })).value,
  });
  let browser = null;
  try {
    browser = await launchChromium(chromium.path);
    const version = browser.version();
    const urlOf = async (surface, language) => {
      if (surface !== 'hosted') return { url: pages.checkoutUrl(surface, language), transaction: null };
      const transaction = await newTransaction();
      return { url: `${server.url}${transaction.path}${language === 'en' ? '' : `?lang=${language}`}`, transaction };
    };

    // One recorded run per surface, not counted: the waterfall of its cold load, and the payment's requests.
    /** @type {Record<string, { waterfall: WaterfallRow[], readyMs: number, clickMs: number, marks: { name: string, where: string, atMs: number }[], sockets: { path: string, atMs: number }[], replay: any }>} */
    const recorded = {};
    for (const surface of SURFACES) {
      const spec = SURFACE_SPECS[surface];
      const { url, transaction } = await urlOf(surface, 'en');
      const run = await loadOnce(browser, { url, targets: spec.targets, pay: spec.pay, record: true });
      const requests = run.requests ?? [];
      const payment = paymentRequests(requests, run.payStartedAt, run.paidSeenAt);
      if (payment.length === 0) throw new Error(`${spec.name}: no request between the pay click and the callback`);
      const origins = new Set(payment.map((r) => r.frameOrigin));
      if (origins.size !== 1) throw new Error(`${spec.name}: the payment's requests came from ${[...origins].join(' and ')}; a replay needs one origin`);
      const [origin] = origins;
      recorded[surface] = {
        readyMs: run.readyMs,
        clickMs: run.clickMs,
        waterfall: requests
          .filter((r) => r.seenAt < run.payStartedAt)
          .map((r) => ({
            path: shownPath(r.url, server.url, pages.port),
            type: r.resourceType,
            startMs: r.startMs,
            endMs: r.endMs,
            bytes: r.responseBytes,
            status: r.status,
          })),
        marks: run.marks
          .filter((m) => m.atMs < run.clickMs)
          .map((m) => ({ ...m, where: m.where === 'page' ? 'page' : m.where.includes(new URL(server.url).host) ? 'frame (service)' : m.where })),
        sockets: run.sockets.map((s) => ({ path: shownPath(s.url.replace(/^ws/, 'http'), server.url, pages.port), atMs: s.atMs })),
        replay: {
          payment,
          setup: setupRequests(requests, run.payStartedAt),
          transaction,
          // A document of the origin that sent them: the service's manifest (plain JSON), or the merchant's blank page.
          documentUrl: origin === new URL(server.url).origin ? `${server.url}/sdk/manifest.json` : origin === pages.merchantOrigin ? pages.blankUrl : null,
          requests: payment.map((r) => `${r.method} ${shownPath(r.url, server.url, pages.port)}`),
        },
      };
      if (!recorded[surface].replay.documentUrl)
        throw new Error(`${spec.name}: the payment's requests came from ${origin}, neither the service nor the merchant page`);
    }

    // The frictionless 3-D Secure card, once per surface that takes it, not counted: its payment must be one, or the
    // rows would time an ordinary payment (or a challenge's dialog).
    const frictionless = (spec) => (/** @type {import('playwright-core').Page} */ page) => spec.pay(page, FRICTIONLESS_3DS_CARD);
    for (const surface of SURFACES.filter((s) => SURFACE_SPECS[s].threeDSecure)) {
      const spec = SURFACE_SPECS[surface];
      const { url, transaction } = await urlOf(surface, 'en');
      const run = await loadOnce(browser, { url, targets: spec.targets, pay: frictionless(spec) });
      const number = transaction?.transactionNumber ?? run.paid?.transactionNumber;
      if (!number) throw new Error(`${spec.name}: the frictionless 3-D Secure payment named no transaction`);
      const paid = await merchantTransaction(server.url, merchant.apiKey, number);
      const flow = paid.confirmation?.threeDSecure?.flow;
      if (flow !== 'frictionless')
        throw new Error(`${spec.name}: the 3-D Secure card's payment has flow ${flow ?? 'none'} (status ${paid.status}), not frictionless`);
    }

    // The replays run in one page per origin, kept open: its connections are as warm as the measured page's are
    // when the shopper pays (the load opened them). Each replay has its own fresh session or transaction.
    const replayPages = new Map();
    const replayPage = async (documentUrl) => {
      if (!replayPages.has(documentUrl)) {
        const context = await browser.newContext({ locale: 'en-US' });
        const page = await context.newPage();
        await page.goto(documentUrl, { waitUntil: 'load' });
        replayPages.set(documentUrl, page);
      }
      return replayPages.get(documentUrl);
    };
    /** A replay of a surface's payment requests on a fresh session (a new transaction for the hosted page). */
    const replayOnce = async (surface) => {
      const { payment, setup, transaction, documentUrl } = recorded[surface].replay;
      let swaps;
      if (surface === 'hosted') {
        const fresh = await newTransaction();
        swaps = new Map([
          [transaction.linkId, fresh.linkId],
          [transaction.transactionNumber, fresh.transactionNumber],
        ]);
      } else swaps = await freshSession(setup);
      return replayInPage(await replayPage(documentUrl), planReplay(payment, swaps));
    };

    const samples = Object.fromEntries(
      SURFACES.map((s) => [
        s,
        {
          ready: new Latencies(),
          referenceReady: new Latencies(),
          pay: new Latencies(),
          referencePay: new Latencies(),
          readyHe: new Latencies(),
          payFrictionless: new Latencies(),
        },
      ]),
    );
    const started = performance.now();
    log(
      `  ${config.runs} rounds; each: every surface measured (load and pay), its reference page, its payment's replay; Elements and the hosted page also in he and paid with the frictionless 3-D Secure card…`,
    );
    for (let round = 0; round < config.runs; round++) {
      // The surfaces in turn, starting with another one each round; within a surface the measured run and its
      // references alternate which goes first.
      for (let k = 0; k < SURFACES.length; k++) {
        const surface = SURFACES[(round + k) % SURFACES.length];
        const spec = SURFACE_SPECS[surface];
        const s = samples[surface];
        const steps = [
          async () => {
            const run = await loadOnce(browser, { url: (await urlOf(surface, 'en')).url, targets: spec.targets, pay: spec.pay });
            s.ready.add(run.readyMs);
            s.pay.add(run.payMs);
          },
          async () => s.referenceReady.add((await loadOnce(browser, { url: pages.referenceUrl(surface), targets: spec.referenceTargets })).readyMs),
          async () => s.referencePay.add(await replayOnce(surface)),
          ...(spec.languages
            ? [async () => s.readyHe.add((await loadOnce(browser, { url: (await urlOf(surface, 'he')).url, targets: spec.targets })).readyMs)]
            : []),
          ...(spec.threeDSecure
            ? [
                async () =>
                  s.payFrictionless.add(
                    (await loadOnce(browser, { url: (await urlOf(surface, 'en')).url, targets: spec.targets, pay: frictionless(spec) })).payMs,
                  ),
              ]
            : []),
        ];
        const order = round % 2 === 0 ? steps : [...steps].reverse();
        for (const step of order) await step();
      }
      if ((round + 1) % 10 === 0 && round + 1 < config.runs) log(`  ${round + 1} rounds in ${Math.round((performance.now() - started) / 1000)} s…`);
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      measured: true,
      chromium: `${chromium.path} (${version})`,
      runs: config.runs,
      seconds,
      frictionlessCard: FRICTIONLESS_3DS_CARD.number,
      fieldStates: pages.fieldStates,
      referenceSizes: pages.referenceSizes,
      surfaces: SURFACES.map((surface) => {
        const s = samples[surface];
        const r = recorded[surface];
        return {
          surface,
          name: SURFACE_SPECS[surface].name,
          languages: SURFACE_SPECS[surface].languages,
          ready: summary(s.ready),
          referenceReady: summary(s.referenceReady),
          pay: summary(s.pay),
          referencePay: summary(s.referencePay),
          readyHe: SURFACE_SPECS[surface].languages ? summary(s.readyHe) : null,
          payFrictionless: SURFACE_SPECS[surface].threeDSecure ? summary(s.payFrictionless) : null,
          waterfall: { readyMs: r.readyMs, clickMs: r.clickMs, rows: r.waterfall, marks: r.marks, sockets: r.sockets },
          replayed: r.replay.requests,
          replayedFrom: r.replay.documentUrl.startsWith(server.url) ? 'a document of the service (its manifest)' : "a blank page of the merchant's origin",
        };
      }),
    };
  } finally {
    await browser?.close().catch(() => undefined);
    await pages.stop();
  }
}
