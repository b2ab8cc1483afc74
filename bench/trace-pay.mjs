// Where one payment's time goes, surface by surface (a diagnosis tool beside metric 10, not a metric):
//
//   node --import tsx bench/trace-pay.mjs [--surface=hosted|elements|iframe|express] [--runs=5] [--trace=<file.json>] [--untraced]
//
// It starts a server as the bench does (the production bundle, a fresh database, a merchant), loads the surface in
// headless Chromium (metric 10's launch, probe and payment), and for each run records Chromium's performance trace
// and the DevTools network events (every frame's, out-of-process frames too) from just before the shopper types to the
// confirmation. It prints, on a clock starting at the pay click: the requests and websocket frames, and the work of
// every renderer's main thread (its tasks and what they spent their time on: scripts, style and layout, paint) and
// its idle gaps, then the median of each phase over the runs. `--trace` keeps the first run's trace, which Chromium's
// DevTools (Performance, "Load profile") opens, and each frame's CPU profile beside it; `--untraced` leaves the trace and the profile out (and their cost), to
// compare the phases of many runs.
import { writeFileSync } from 'node:fs';
import { Latencies } from './latencies.mjs';
import { createMerchant } from './merchant.mjs';
import { createStore, localPostgresAnswers } from './database.mjs';
import { browserFilesBuilt, startServer } from './server-process.mjs';
import { onInterrupt, stopAllChildren } from './children.mjs';
import { findChromium, launchChromium } from './metrics/browser-launch.mjs';
import { installProbe } from './metrics/browser-probe.mjs';
import { startBenchPages } from './metrics/browser-pages.mjs';
import { SURFACE_SPECS } from './metrics/browser-surfaces.mjs';
import { merchantApi } from './metrics/browser.mjs';

const args = process.argv.slice(2);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const surface = /** @type {import('./metrics/browser-pages.mjs').Surface} */ (option('surface') ?? 'hosted');
const runs = Number(option('runs') ?? 5);
const traceFile = option('trace');
// Timings only (the network and the phases, with the replay), without the trace and the profile and their overhead.
const traced = !args.includes('--untraced');
if (!(surface in SURFACE_SPECS)) throw new Error(`--surface: one of ${Object.keys(SURFACE_SPECS).join(', ')}`);

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'v8.execute',
  'blink.user_timing',
  'toplevel',
  'loading',
];

/** What a trace event's self time counts as. */
function kindOf(name) {
  if (
    /^(FunctionCall|EvaluateScript|v8\.|V8\.|RunMicrotasks|EventDispatch|TimerFire|FireAnimationFrame|FireIdleCallback|XHR|ParseAuthorStyleSheet|CompileScript|ScriptEvaluation|ProfileCall)/.test(
      name,
    )
  )
    return 'script';
  if (
    /^(UpdateLayoutTree|RecalculateStyles|Layout|InvalidateLayout|ScheduleStyleRecalculation|HitTest|IntersectionObserverController|UpdateLayerTree)/.test(name)
  )
    return 'style+layout';
  if (/^(Paint|PrePaint|Layerize|Commit|CompositeLayers|UpdateLayer|RasterTask|Decode|PaintImage|BeginMainThreadFrame|BeginFrame)/.test(name)) return 'paint';
  if (/^(ParseHTML|ResourceSendRequest|ResourceReceiveResponse|ResourceReceivedData|ResourceFinish)/.test(name)) return 'parse+loading';
  return 'other';
}

/** Self time of each complete event per thread (a child's time is not its parent's), with the top-level tasks. */
function threadWork(events) {
  const sorted = events.filter((e) => e.ph === 'X' && typeof e.dur === 'number').sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const stack = [];
  const tops = [];
  for (const e of sorted) {
    while (stack.length > 0 && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    e.self = e.dur;
    e.children = [];
    const parent = stack.at(-1);
    if (parent) {
      parent.self -= e.dur;
      parent.children.push(e);
    } else tops.push(e);
    stack.push(e);
  }
  return tops;
}

/** Every event below `task` (itself too). */
function* within(task) {
  yield task;
  for (const child of task.children) yield* within(child);
}

/** The self time of `tasks` by kind and by the largest event names. */
function breakdown(tasks, from, to) {
  const byKind = {};
  const byName = {};
  for (const task of tasks) {
    if (task.ts + task.dur < from || task.ts > to) continue;
    for (const e of within(task)) {
      // Clipped to the window (a task that started before the click counts only its part after it).
      const share = Math.max(0, Math.min(e.ts + e.dur, to) - Math.max(e.ts, from)) / e.dur || 0;
      const self = e.self * share;
      const name = e.name === 'FunctionCall' || e.name === 'EvaluateScript' ? `${e.name} ${shortUrl(e.args?.data?.url ?? '')}` : e.name;
      byKind[kindOf(e.name)] = (byKind[kindOf(e.name)] ?? 0) + self;
      byName[name] = (byName[name] ?? 0) + self;
    }
  }
  return { byKind, byName };
}

const shortUrl = (url) => {
  try {
    const u = new URL(url);
    return `${u.port === new URL(serverUrl).port ? 'service' : u.host}${u.pathname.replace(/\/pay\/[^/]+/, '/pay/{linkId}').replace(/\/sessions\/[^/]+/, '/sessions/{id}')}`;
  } catch {
    return url;
  }
};
const ms = (µs) => `${(µs / 1000).toFixed(1).padStart(6)} ms`;

/** The self time of each function of a CPU profile between `from` and `to` (µs, the trace's clock). */
function profileSelfTime(profile, from, to) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map();
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (t < from || t > to) return;
    const frame = nodes.get(id).callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}${frame.url ? `:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : ''}`;
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i + 1] ?? delta));
  });
  return totals;
}

/** The DevTools network events of a session (a page's, or an out-of-process frame's), on the trace's clock (µs). */
function recordNetwork(session, into) {
  const µs = (seconds) => seconds * 1e6;
  session.on('Network.requestWillBeSent', (e) =>
    into.set(e.requestId, {
      url: e.request.url,
      method: e.request.method,
      sent: µs(e.timestamp),
      wall: e.wallTime * 1000,
      body: e.request.postData,
      requestHeaders: e.request.headers,
    }),
  );
  session.on('Network.responseReceived', (e) => {
    const r = into.get(e.requestId);
    if (r)
      Object.assign(r, {
        status: e.response.status,
        headers: µs(e.timestamp),
        server: e.response.timing ? e.response.timing.receiveHeadersStart - e.response.timing.sendEnd : NaN,
      });
  });
  session.on('Network.loadingFinished', (e) => {
    const r = into.get(e.requestId);
    if (r) r.finished = µs(e.timestamp);
  });
  session.on('Network.webSocketCreated', (e) => into.set(`ws ${e.requestId}`, { url: e.url, method: 'WS', sent: NaN, frames: [] }));
  const frame = (direction) => (e) =>
    into.get(`ws ${e.requestId}`)?.frames.push({ at: µs(e.timestamp), direction, data: String(e.response.payloadData).slice(0, 90) });
  session.on('Network.webSocketFrameReceived', frame('←'));
  session.on('Network.webSocketFrameSent', frame('→'));
  return session.send('Network.enable');
}

let serverUrl = '';
const cleanup = [];
const cleanUp = async () => {
  while (cleanup.length > 0)
    await Promise.resolve()
      .then(cleanup.pop())
      .catch(() => undefined);
  await stopAllChildren();
};
onInterrupt(cleanUp);

try {
  const chromium = findChromium();
  if ('reason' in chromium) throw new Error(chromium.reason);
  if (surface !== 'hosted') await browserFilesBuilt({ whenMissing: true });
  const store = await createStore((await localPostgresAnswers()) ? 'local' : 'embedded', 'trace');
  cleanup.push(() => store.dispose());
  const server = await startServer(store);
  cleanup.push(() => server.stop());
  serverUrl = server.url;
  const merchant = await createMerchant(server);
  const api = merchantApi(server.url, merchant.apiKey);
  const newPayPath = async () =>
    new URL((await api('/transactions/init', { amount: 12.5, currency: 'USD', products: [{ name: 'Lamp', quantity: 1, amount: 12.5 }] })).transactionPage.qrURL)
      .pathname;
  const pages =
    surface === 'hosted'
      ? null
      : await startBenchPages({
          serviceUrl: server.url,
          samplePayPath: await newPayPath(),
          clientIdFor: async (origin) => (await api('/credentials', { kind: 'client', allowedOrigins: [origin] })).value,
        });
  if (pages) cleanup.push(() => pages.stop());
  const browser = await launchChromium(chromium.path);
  cleanup.push(() => browser.close());
  const spec = SURFACE_SPECS[surface];
  console.log(`${spec.name}: ${runs} traced payments (${browser.version()})`);

  // The hosted page's payment sent again from a warm page of the service (as metric 10's replay does), after each
  // run, to tell the server's time for the page's request from its time for the same request alone.
  const replayContext = surface === 'hosted' ? await browser.newContext({ locale: 'en-US' }) : null;
  const replayPage = replayContext ? await replayContext.newPage() : null;
  const replayNetwork = new Map();
  if (replayContext && replayPage) {
    await recordNetwork(await replayContext.newCDPSession(replayPage), replayNetwork);
    await replayPage.goto(`${server.url}/sdk/manifest.json`);
  }
  /** @param {string} body */
  /**
   * The payment's body posted to a new link from `from` (the warm page of the service, or the paid page itself).
   * @param {string} body
   * @param {import('playwright-core').Page} from
   * @param {Map<string, any>} net the network events of `from`
   */
  const replayOnce = async (body, from, net) => {
    const path = await newPayPath();
    const before = new Set(net.keys());
    const took = await from.evaluate(
      async ({ path, body }) => {
        const started = performance.now();
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': `replay-${Math.random()}` },
          body,
          credentials: 'omit',
        });
        await response.text();
        return performance.now() - started;
      },
      { path, body },
    );
    return { took, server: [...net].find(([id, r]) => !before.has(id) && r.method === 'POST')?.[1].server ?? NaN };
  };
  /** @type {Record<string, Latencies>} */
  const phases = {};
  const phase = (name, value) => (phases[name] ??= new Latencies()).add(value);
  for (let run = 0; run < runs; run++) {
    const url = pages ? pages.checkoutUrl(surface, 'en') : `${server.url}${await newPayPath()}`;
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1000, height: 800 } });
    try {
      const events = [];
      /** @type {() => void} */
      let wake = () => {};
      await installProbe(context, spec.targets, (event) => {
        events.push(event);
        wake();
      });
      const until = (test, what) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`${what}: nothing after 30 s`)), 30_000);
          const check = () => {
            const found = test();
            if (found) {
              clearTimeout(timer);
              resolve(found);
            }
          };
          wake = check;
          check();
        });
      const page = await context.newPage();
      const network = new Map();
      await recordNetwork(await context.newCDPSession(page), network);
      await page.goto(url, { waitUntil: 'commit' });
      await until(() => events.find((e) => e.kind === 'field') && (!spec.targets.frame || events.find((e) => e.kind === 'frame')), 'the field ready');
      // Out-of-process frames (the card frame, the widget) have a session of their own.
      for (const frame of page.frames().slice(1)) await recordNetwork(await context.newCDPSession(frame), network).catch(() => undefined);
      // JavaScript's own time, by function: a sampling profile of every frame's renderer over the same window.
      const profiled = [];
      for (const frame of traced ? page.frames() : []) {
        const session = await context.newCDPSession(frame === page.mainFrame() ? page : frame).catch(() => null);
        if (!session) continue;
        await session.send('Profiler.enable');
        await session.send('Profiler.setSamplingInterval', { interval: 100 });
        await session.send('Profiler.start');
        profiled.push({ session, origin: new URL(frame.url()).host });
      }
      if (traced) await browser.startTracing(page, { categories: CATEGORIES });
      // The trace's clock against the page's: a mark made now, its trace time and its wall time.
      const sync = await page.evaluate(() => {
        performance.mark('trace-pay-sync');
        return performance.timeOrigin + performance.now();
      });
      await spec.pay(page);
      const done = await until(() => events.find((e) => e.kind === 'paid' || e.kind === 'done'), 'the payment');
      // The replays run while the trace still records, so that every request shares its cost: from the paid page (its
      // connection, its renderer), then from the warm page of the service (the metric's).
      const paid = [...network.values()].find((r) => r.method === 'POST');
      const replayedHere = replayPage && paid?.body ? await replayOnce(paid.body, page, network) : null;
      const replayed = replayPage && paid?.body ? await replayOnce(paid.body, replayPage, replayNetwork) : null;
      await new Promise((resolve) => setTimeout(resolve, 100));
      const buffer = traced ? await browser.stopTracing() : null;
      const profiles = [];
      for (const { session, origin } of profiled) profiles.push({ origin, profile: (await session.send('Profiler.stop')).profile });
      if (buffer && traceFile && run === 0) {
        writeFileSync(traceFile, buffer);
        // Each frame's CPU profile beside it (DevTools opens a .cpuprofile too).
        for (const { origin, profile } of profiles)
          writeFileSync(`${traceFile.replace(/\.json$/, '')}.${origin.replace(/[^\w.-]/g, '_')}.cpuprofile`, JSON.stringify(profile));
      }
      const trace = buffer ? JSON.parse(buffer.toString('utf8')) : [];
      /** @type {any[]} */
      const all = Array.isArray(trace) ? trace : trace.traceEvents;
      // The monotonic clock (the trace's, the network events') against the wall clock (the probe's): the sync mark's
      // trace time, or untraced, a request's two times.
      const mark = all.find((e) => e.name === 'trace-pay-sync');
      const anyRequest = [...network.values()].find((r) => Number.isFinite(r.wall));
      if (!mark && !anyRequest) throw new Error('nothing to set the clocks by');
      const toTrace = (wall) => (mark ? mark.ts + (wall - sync) * 1000 : anyRequest.sent + (wall - anyRequest.wall) * 1000);
      const click = events.findLast((e) => e.kind === 'click' && e.t <= done.t);
      const t0 = toTrace(click.t);
      const t1 = toTrace(done.t);
      const at = (ts) => ms(ts - t0);
      console.log(`\nrun ${run + 1}: click → ${done.kind} ${((done.t - click.t) / 1).toFixed(1)} ms`);
      phase('click → done', done.t - click.t);

      console.log('  network (from the click; server = response headers after the request was sent):');
      const requests = [...network.values()].filter((r) => r.sent >= t0 - 5000 && r.sent <= t1);
      const payment = requests.find((r) => r.method === 'POST');
      for (const r of requests)
        console.log(
          `    ${at(r.sent)} → ${r.headers ? at(r.headers) : '     ?   '} → ${r.finished ? at(r.finished) : '     ?   '}  ${r.method} ${shortUrl(r.url)} ${r.status ?? ''} (server ${Number.isFinite(r.server) ? r.server.toFixed(1) : '?'} ms)`,
        );
      for (const ws of [...network.values()].filter((r) => r.method === 'WS'))
        for (const f of ws.frames.filter((f) => f.at >= t0 - 5000 && f.at <= t1 + 100_000)) console.log(`    ${at(f.at)} ws ${f.direction} ${f.data}`);
      if (payment) {
        phase('click → request sent', (payment.sent - t0) / 1000);
        phase('request in flight (sent → finished)', (payment.finished - payment.sent) / 1000);
        phase('server (sent → response headers)', payment.server);
        phase('answer → done', (t1 - payment.finished) / 1000);
        if (replayed && replayedHere) {
          console.log(
            `  the same POST sent again: from the paid page ${replayedHere.took.toFixed(1)} ms (server ${replayedHere.server.toFixed(1)} ms), from a warm page of the service ${replayed.took.toFixed(1)} ms (server ${replayed.server.toFixed(1)} ms)`,
          );
          phase('replay from the paid page: server', replayedHere.server);
          phase('replay from a warm page (as metric 10): fetch', replayed.took);
          phase('replay from a warm page (as metric 10): server', replayed.server);
        }
      }

      // Before the payment's request, and after its answer (the payment's own work on either side of the wait).
      const windows = payment
        ? [
            ['click → request', t0, payment.sent],
            ['answer → done', payment.finished, t1],
          ]
        : [['click → done', t0, t1]];
      for (const { origin, profile } of profiles) {
        for (const [what, from, to] of windows) {
          const top = [...profileSelfTime(profile, from, to)]
            .filter(([name]) => !name.startsWith('(idle)'))
            .sort((a, b) => b[1] - a[1])
            .slice(0, 8)
            .filter(([, v]) => v >= 200);
          if (top.length > 0)
            console.log(`  JavaScript in ${origin}, ${what} (self, sampled): ${top.map(([n, v]) => `${n} ${(v / 1000).toFixed(1)}`).join('; ')}`);
        }
      }
      // Every renderer main thread that worked in the window, and the browser's.
      const names = new Map(all.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
      // Each renderer by what it draws: the top page, or a frame of another site (its host).
      const processes = new Map();
      for (const e of all.filter((e) => e.name === 'TracingStartedInBrowser' || e.name === 'FrameCommittedInBrowser'))
        for (const f of e.args?.data?.frames ?? [e.args?.data ?? {}])
          if (f.processId && f.url && !processes.has(f.processId))
            processes.set(f.processId, f.isOutermostMainFrame ? 'page' : `frame ${shortUrl(f.url).split('/')[0]}`);
      const threads = new Map();
      for (const e of all) {
        const name = names.get(`${e.pid}:${e.tid}`);
        if (name !== 'CrRendererMain' && name !== 'CrBrowserMain') continue;
        const key = `${e.pid}:${e.tid}`;
        if (!threads.has(key)) threads.set(key, []);
        threads.get(key).push(e);
      }
      for (const [key, list] of threads) {
        const tops = threadWork(list).filter((t) => t.ts + t.dur >= t0 && t.ts <= t1);
        if (tops.length === 0) continue;
        const { byKind, byName } = breakdown(tops, t0, t1);
        const busy = Object.values(byKind).reduce((a, b) => a + b, 0);
        const pid = Number(key.split(':')[0]);
        const what = names.get(key) === 'CrBrowserMain' ? 'browser' : (processes.get(pid) ?? `renderer ${pid}`);
        const label = `${what} (${names.get(key)})`;
        console.log(
          `  ${label}: busy ${ms(busy).trim()} of ${ms(t1 - t0).trim()}: ${Object.entries(byKind)
            .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
            .join(', ')}`,
        );
        if (names.get(key) === 'CrRendererMain') {
          phase(`${what}: main thread busy`, busy / 1000);
          for (const [kind, value] of Object.entries(byKind)) phase(`${what}: ${kind}`, value / 1000);
          const top = Object.entries(byName)
            .sort((a, b) => b[1] - a[1])
            .slice(0, 8)
            .filter(([, v]) => v >= 200);
          console.log(`    most: ${top.map(([n, v]) => `${n} ${(v / 1000).toFixed(1)}`).join('; ')}`);
          for (const task of tops.filter((t) => t.dur >= 500)) {
            const inside = Object.entries(breakdown([task], t0, t1).byName)
              .sort((a, b) => b[1] - a[1])
              .slice(0, 3)
              .map(([n, v]) => `${n} ${(v / 1000).toFixed(1)}`);
            console.log(`    task ${at(task.ts)} for ${ms(task.dur).trim()}: ${inside.join('; ')}`);
          }
        }
      }
    } finally {
      await context.close();
    }
  }
  console.log(`\nover ${runs} runs:${' '.repeat(33)}p50      p95`);
  for (const [name, values] of Object.entries(phases))
    console.log(`  ${name.padEnd(44)} ${values.percentile(50).toFixed(1).padStart(7)} ${values.percentile(95).toFixed(1).padStart(8)} ms`);
} finally {
  await cleanUp();
}
