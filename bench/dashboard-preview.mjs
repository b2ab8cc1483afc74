// A preview of docs/grafana-dashboard.json drawn from real series, not a Grafana screenshot: starts the service
// (sandbox, METRICS_PORT set, production bundle) on a fresh database, runs a short lifecycle load in three phases
// (2, 6, then 1 client; every tenth transaction with a callback URL to a local receiver that refuses one attempt in
// four, every fifth captured one partly refunded), scrapes GET /metrics every 2 s, evaluates each panel's queries over
// the scrapes (promql-subset.mjs: rates between consecutive scrapes) and draws them as SVG line charts in an HTML
// page, which the system Chromium screenshots into docs/images/dashboard-preview.png.
//
//   node --import tsx bench/dashboard-preview.mjs [--out=docs/images/dashboard-preview.png] [--chromium=/usr/bin/chromium]
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { stopAllChildren } from './children.mjs';
import { createStore } from './database.mjs';
import { createConnection, runClosedLoop } from './load-client.mjs';
import { callEndpoint, merchantHeaders, runLifecycle } from './lifecycle.mjs';
import { createMerchant } from './merchant.mjs';
import { evaluate, parseExposition, parseQuery } from './promql-subset.mjs';
import { freePort, ROOT, startServer } from './server-process.mjs';

const SCRAPE_EVERY_MS = 2000;
/** Drawn at 85 % so that the PNG stays under 200 KB. */
const SCALE = 0.85;
const PHASES = [
  { clients: 2, ms: 10_000 },
  { clients: 6, ms: 12_000 },
  { clients: 1, ms: 8_000 },
];
const COLOURS = ['#7eb26d', '#eab839', '#6ed0e0', '#ef843c', '#e24d42', '#1f78c1', '#ba43a9', '#705da0', '#508642', '#cca300'];

const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const out = path.resolve(ROOT, option('out', 'docs/images/dashboard-preview.png'));
const chromium = option('chromium', process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');

/** The merchant's callback endpoint: 500 to one attempt in four, 200 to the others. */
async function startReceiver() {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(++n % 4 === 0 ? 500 : 200).end());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${port}/callback`, close: () => new Promise((resolve) => server.close(() => resolve(undefined))) };
}

/** Runs the load and returns the scrapes (each `at` in seconds since the first). */
async function scrapeUnderLoad() {
  const store = await createStore('local', 'dashboard');
  const receiver = await startReceiver();
  /** @type {Awaited<ReturnType<typeof startServer>> | null} */
  let server = null;
  try {
    const metricsPort = await freePort();
    server = await startServer(store, { name: 'dashboard-preview', env: { METRICS_PORT: String(metricsPort) } });
    const url = server.url;
    const merchant = await createMerchant(server);
    /** @type {import('./promql-subset.mjs').Scrape[]} */
    const scrapes = [];
    const started = Date.now();
    let scraping = true;
    const scraper = (async () => {
      while (scraping) {
        const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
        if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
        scrapes.push({ at: (Date.now() - started) / 1000, samples: parseExposition(await res.text()) });
        await new Promise((resolve) => setTimeout(resolve, SCRAPE_EVERY_MS));
      }
    })();
    const connections = Array.from({ length: Math.max(...PHASES.map((p) => p.clients)) }, () => createConnection(url));
    let sequence = 0;
    const iteration = async (i) => {
      const n = ++sequence;
      const hold = await runLifecycle(connections[i], merchant.apiKey, { callbackURL: n % 10 === 0 ? receiver.url : undefined });
      if (n % 5 === 0) {
        await callEndpoint(connections[i], 'refundTransaction', {
          params: { transactionNumber: hold.transactionNumber },
          body: { amount: 250 },
          headers: merchantHeaders(merchant.apiKey),
        });
      }
    };
    try {
      for (const phase of PHASES) {
        console.log(`  ${phase.clients} client(s) for ${phase.ms / 1000} s…`);
        await runClosedLoop({ clients: phase.clients, durationMs: phase.ms, iteration });
      }
      await new Promise((resolve) => setTimeout(resolve, SCRAPE_EVERY_MS * 2));
    } finally {
      scraping = false;
      connections.forEach((c) => c.close());
      await scraper;
    }
    return { scrapes, sequences: sequence };
  } finally {
    await server?.stop();
    await receiver.close();
    await store.dispose();
  }
}

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** A value in the panel's unit, short. */
function formatValue(value, unit) {
  if (!Number.isFinite(value)) return '–';
  if (unit === 'percentunit') return `${(value * 100).toFixed(value < 0.1 ? 1 : 0)}%`;
  if (unit === 's') return value < 1 ? `${(value * 1000).toFixed(value < 0.01 ? 1 : 0)} ms` : `${value.toFixed(1)} s`;
  if (unit === 'bytes') return `${(value / 1024 / 1024).toFixed(0)} MiB`;
  const suffix = unit === 'reqps' ? ' req/s' : unit === 'ops' ? '/s' : '';
  return `${Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : Number(value.toFixed(2))}${suffix}`;
}

/** The legend of one series: the target's legendFormat with {{label}} filled, or its labels. */
const legendOf = (target, labels) =>
  (target.legendFormat ?? '').replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k) => labels[k] ?? '').trim() ||
  Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(', ') ||
  target.expr;

/** One panel: its series over the scrapes as an SVG line chart, with axes, a legend and the queries below. */
function panelHtml(panel, scrapes) {
  const unit = panel.fieldConfig?.defaults?.unit;
  /** @type {Map<string, (number | null)[]>} */
  const series = new Map();
  for (const target of panel.targets ?? []) {
    const tree = parseQuery(target.expr);
    scrapes.forEach((_, i) => {
      for (const s of evaluate(tree, scrapes, i)) {
        const name = legendOf(target, s.labels);
        const values = series.get(name) ?? scrapes.map(() => null);
        values[i] = Number.isFinite(s.value) ? s.value : null;
        series.set(name, values);
      }
    });
  }
  const width = 460;
  const height = 160;
  const left = 64;
  const bottom = 22;
  const all = [...series.values()].flat().filter((v) => v !== null);
  const max = Math.max(...all, 0) || 1;
  const top = max * 1.1;
  const end = scrapes.at(-1)?.at || 1;
  const x = (i) => left + (scrapes[i].at / end) * (width - left - 8);
  const y = (v) => 6 + (1 - v / top) * (height - bottom - 6);
  const grid = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const v = top * f;
    return `<line x1="${left}" x2="${width - 8}" y1="${y(v)}" y2="${y(v)}" stroke="#2c3235" shape-rendering="crispEdges"/><text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${escape(formatValue(v, unit))}</text>`;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (f) => `<text x="${left + f * (width - left - 8)}" y="${height - 6}" text-anchor="middle">${Math.round(end * f)} s</text>`,
  );
  const lines = [...series.entries()].map(([, values], k) => {
    const points = values.map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`));
    const runs = points
      .join(' ')
      .split(/\s*null\s*/)
      .filter((run) => run.trim());
    return runs.map((run) => `<polyline fill="none" stroke="${COLOURS[k % COLOURS.length]}" stroke-width="1.6" points="${run.trim()}"/>`).join('');
  });
  const legend = [...series.entries()].map(([name, values], k) => {
    const highest = Math.max(...values.filter((v) => v !== null));
    return `<span><i style="background:${COLOURS[k % COLOURS.length]}"></i>${escape(name)} <b>max ${escape(formatValue(highest, unit))}</b></span>`;
  });
  return `<section>
  <h2>${escape(panel.title)}</h2>
  ${series.size === 0 ? '<div class="empty">No data</div>' : `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${grid.join('')}${ticks.join('')}${lines.join('')}</svg>`}
  <div class="legend">${legend.join('')}</div>
  <code>${(panel.targets ?? []).map((t) => escape(t.expr)).join('<br>')}</code>
</section>`;
}

function pageHtml(dashboard, scrapes, sequences) {
  const panels = [...dashboard.panels].sort((a, b) => a.gridPos.y - b.gridPos.y || a.gridPos.x - b.gridPos.x);
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; padding: 14px; background: #111217; color: #ccccdc; font: 12px system-ui, sans-serif; width: 972px; }
header { margin: 0 4px 10px; } header h1 { font-size: 17px; margin: 0 0 4px; font-weight: 500; } header p { margin: 0; color: #8e8e9e; }
main { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
section { background: #181b1f; border: 1px solid #2c3235; border-radius: 3px; padding: 8px 10px; }
h2 { font-size: 13px; font-weight: 500; margin: 0 0 4px; color: #d8d9da; }
svg text { fill: #8e8e9e; font-size: 10px; }
.legend { display: flex; flex-wrap: wrap; gap: 2px 12px; margin: 2px 0 4px; }
.legend i { display: inline-block; width: 12px; height: 3px; margin: 0 5px 3px 0; vertical-align: middle; }
.legend b { color: #d8d9da; font-weight: 500; }
code { display: block; color: #6e7079; font-size: 10px; overflow-wrap: anywhere; }
.empty { height: 160px; display: grid; place-items: center; color: #6e7079; }
</style></head><body>
<header><h1>${escape(dashboard.title)} — preview, not a Grafana screenshot</h1>
<p>Each panel of docs/grafana-dashboard.json, its queries evaluated over ${scrapes.length} scrapes of GET /metrics (every ${SCRAPE_EVERY_MS / 1000} s) of a sandbox service under ${sequences} lifecycle sequences (2, 6, then 1 client); rates between consecutive scrapes. Drawn by bench/dashboard-preview.mjs.</p></header>
<main>${panels.map((panel) => panelHtml(panel, scrapes)).join('\n')}</main>
</body></html>`;
}

const dashboard = JSON.parse(await fs.readFile(path.join(ROOT, 'docs/grafana-dashboard.json'), 'utf8'));
// Every query is read before the service starts: a form the subset does not know fails here, not after the load.
for (const panel of dashboard.panels) for (const target of panel.targets ?? []) parseQuery(target.expr);
try {
  console.log('dashboard preview: the service under load, scraped…');
  const { scrapes, sequences } = await scrapeUnderLoad();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-dashboard-'));
  try {
    const page = path.join(dir, 'dashboard.html');
    await fs.writeFile(page, pageHtml(dashboard, scrapes, sequences));
    await fs.mkdir(path.dirname(out), { recursive: true });
    const height = 100 + Math.ceil(dashboard.panels.length / 2) * 272;
    await promisify(execFile)(
      chromium,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--hide-scrollbars',
        `--user-data-dir=${path.join(dir, 'profile')}`,
        `--window-size=1000,${height}`,
        `--force-device-scale-factor=${SCALE}`,
        `--screenshot=${out}`,
        `file://${page}`,
      ],
      { timeout: 60_000 },
    );
    console.log(`wrote ${path.relative(ROOT, out)} (${((await fs.stat(out)).size / 1024).toFixed(0)} KB)`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
} finally {
  await stopAllChildren();
}
