// BENCHMARKS.md from the results of one run: the machine, the command, the date, a summary of every goal, a table
// per metric, and, for every missed goal, what the profile and the query plans say plus the diagnosis kept in
// bench/findings.md (the section named after the metric).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeWrites, fmt } from './write-count.mjs';
import { LIFECYCLE_STEPS } from './lifecycle.mjs';
import { browserGoals, browserSection } from './metrics/browser-report.mjs';
import { failoverGoals, failoverSection } from './metrics/failover-report.mjs';
import { busGoals, busSection } from './metrics/bus-report.mjs';
import { stripeGoals, stripeSection } from './metrics/stripe-report.mjs';
import { webhookGoals, webhooksSection } from './metrics/webhooks-report.mjs';
import { n0, n1, n2, table } from './markdown-table.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

const ms = (x) => (Number.isFinite(x) ? `${x < 1 ? x.toFixed(3) : x < 10 ? x.toFixed(1) : Math.round(x)} ms` : 'n/a');
const mb = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1024 ** 2).toFixed(0)} MB` : 'n/a');
const kb = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(1)} KB` : 'n/a');
const pct = (x) => `${(x * 100).toFixed(1)} %`;
const met = (ok) => (ok === null ? '–' : ok ? '**met**' : '**not met**');

/**
 * Metric 8's goals (bench/findings.md, "refunds", says why): refunds at least this share of the captures of the same
 * alternating rounds, and their p99 under 8 clients.
 */
const REFUNDS_PER_CAPTURE = 0.75;
const REFUND_P99_MS = 25;

/** The section `## <name>` of bench/findings.md, or null. */
function findings(name) {
  let text;
  try {
    text = readFileSync(path.join(here, 'findings.md'), 'utf8');
  } catch {
    return null;
  }
  const match = new RegExp(`^## ${name}\\s*$([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(text);
  return match ? match[1].trim() : null;
}

/** Every goal with its value and verdict; `null` verdicts are rows that were not measured. */
export function goals(r) {
  const rows = [];
  const add = (metric, what, value, goal, ok) => rows.push({ metric, what, value, goal, ok });
  if (r.lifecycle) {
    const l = r.lifecycle;
    add(
      1,
      'lifecycle throughput ÷ reference',
      `${n2(l.ratio)} (${n1(l.service.perSecond)} ÷ ${n1(l.reference.perSecond)} sequences/s)`,
      '≥ 0.6',
      l.ratio >= 0.6,
    );
    const p99 = l.service.latencies.all.percentile(99);
    add(1, 'p99 per request (lifecycle)', ms(p99), '≤ 25 ms', p99 <= 25);
    if (l.referenceRows) {
      add(
        1,
        "diagnostic, not a goal: lifecycle throughput ÷ reference writing the service's rows",
        `${n2(l.service.perSecond / l.referenceRows.perSecond)} (${n1(l.service.perSecond)} ÷ ${n1(l.referenceRows.perSecond)} sequences/s; that reference ÷ the reference: ${n2(l.referenceRows.perSecond / l.reference.perSecond)})`,
        'none set',
        null,
      );
    }
  }
  if (r.capture) {
    add(2, 'captures per second', `${n1(r.capture.perSecond)} /s (p50 ${ms(r.capture.latencies.p50)}, p99 ${ms(r.capture.latencies.p99)})`, 'none set', null);
    add(2, 'server RSS at the end', `${mb(r.capture.rssBytes)} (peak ${mb(r.capture.peakRssBytes)})`, '≤ 250 MB', r.capture.rssBytes <= 250 * 1024 ** 2);
  }
  if (r.refunds) {
    const { refunds: f, captures: c, ratio } = r.refunds;
    add(
      8,
      'refunds per second ÷ captures per second (alternating rounds; each a sale or hold of its own)',
      `${n2(ratio)} (${n1(f.perSecond)} ÷ ${n1(c.perSecond)} /s)`,
      `≥ ${REFUNDS_PER_CAPTURE}`,
      ratio >= REFUNDS_PER_CAPTURE,
    );
    add(
      8,
      'refund p99 (8 clients)',
      `${ms(f.latencies.p99)} (p50 ${ms(f.latencies.p50)}; captures in the same rounds: p99 ${ms(c.latencies.p99)})`,
      `≤ ${REFUND_P99_MS} ms`,
      f.latencies.p99 <= REFUND_P99_MS,
    );
  }
  if (r.storeGrowth) {
    const g = r.storeGrowth;
    add(
      3,
      `throughput with ${n0(g.seedCount)} stored ÷ empty`,
      `${n2(g.ratio)} (${n1(g.seeded.perSecond)} ÷ ${n1(g.empty.perSecond)} sequences/s)`,
      '≥ 0.9',
      g.ratio >= 0.9,
    );
  }
  if (r.callbacks) {
    const c = r.callbacks;
    add(4, 'callback deliveries per second (backlog drain)', `${n0(c.drain.perSecond)} /s`, '≥ 1,500 /s', c.drain.perSecond >= 1500);
    add(
      4,
      'event → receipt p99 (8 clients of lifecycle load)',
      `${ms(c.loaded.latencies.p99)} (p50 ${ms(c.loaded.latencies.p50)})`,
      '≤ 50 ms',
      c.loaded.latencies.p99 <= 50,
    );
  }
  if (r.websocket) {
    const w = r.websocket;
    if (w.measured) {
      const complete = w.received >= w.expected;
      add(
        5,
        `update → receipt p99, ${n0(w.subscribers)} subscribers`,
        `${ms(w.latencies.p99)} (p50 ${ms(w.latencies.p50)})${complete ? '' : `; only ${n0(w.received)} of ${n0(w.expected)} frames arrived`}`,
        '≤ 60 ms',
        complete && w.latencies.p99 <= 60,
      );
    } else {
      add(5, 'update → receipt p99, 1,000 subscribers', `not measured: ${w.reason}`, '≤ 60 ms', null);
    }
  }
  if (r.pageTtfb) {
    const t = r.pageTtfb;
    add(
      7,
      'hosted page time to first byte p99 (8 clients of lifecycle load)',
      `${ms(t.page.p99)} (p50 ${ms(t.page.p50)}; GET /transactions/:n p99 ${ms(t.status.p99)})`,
      'none set',
      null,
    );
  }
  if (r.observability) {
    const o = r.observability;
    add(
      9,
      'lifecycle throughput cost of the metrics (METRICS_PORT, scraped)',
      `${pct(o.metricsCost)} (${n1(o.metrics.perSecond)} vs ${n1(o.off.perSecond)} sequences/s off${cpuNote(o.metricsCpuCost)})`,
      '≤ 3 %',
      o.metricsCost <= 0.03,
    );
    add(
      9,
      'lifecycle throughput cost of tracing (OTLP to a discarding collector)',
      `${pct(o.tracingCost)} (${n1(o.tracing.perSecond)} vs ${n1(o.off.perSecond)} sequences/s off${cpuNote(o.tracingCpuCost)})`,
      '≤ 10 %',
      o.tracingCost <= 0.1,
    );
  }
  if (r.sdk) {
    for (const a of r.sdk.assets) {
      if (a.goalGzipBytes === null) continue;
      if (a.built) add(6, `${a.name} (gzip)`, `${kb(a.gzipBytes)} (brotli ${kb(a.brotliBytes)})`, `≤ ${kb(a.goalGzipBytes)}`, a.gzipBytes <= a.goalGzipBytes);
      else add(6, `${a.name} (gzip)`, 'not built yet', `≤ ${kb(a.goalGzipBytes)}`, null);
    }
  }
  if (r.browser) browserGoals(r.browser, add);
  if (r.failover) failoverGoals(r.failover, add);
  if (r.bus) busGoals(r.bus, add);
  if (r.stripe) stripeGoals(r.stripe, add);
  if (r.webhooks) webhookGoals(r.webhooks, add);
  return rows;
}

function lifecycleSection(l) {
  const both = (service, reference) => `${fmt(service)} / ${fmt(reference)}`;
  const stepRows = LIFECYCLE_STEPS.map((step) => {
    const s = l.service.latencies.steps.get(step);
    const f = l.reference.latencies.steps.get(step);
    const w = l.writes[step];
    const r = l.referenceWire?.[step] ?? { statements: NaN, roundTrips: NaN };
    return [
      step,
      fmt(w.rows),
      describeWrites(w),
      both(w.statements, r.statements),
      both(w.roundTrips, r.roundTrips),
      ms(s?.percentile(50)),
      ms(s?.percentile(99)),
      ms(f?.percentile(50)),
      ms(f?.percentile(99)),
    ];
  });
  const sum = (of, key) => (of ? LIFECYCLE_STEPS.reduce((n, step) => n + of[step][key], 0) : NaN);
  stepRows.push([
    'sequence',
    fmt(sum(l.writes, 'rows')),
    '',
    both(sum(l.writes, 'statements'), sum(l.referenceWire, 'statements')),
    both(sum(l.writes, 'roundTrips'), sum(l.referenceWire, 'roundTrips')),
    ms(l.service.latencies.all.percentile(50)),
    ms(l.service.latencies.all.percentile(99)),
    ms(l.reference.latencies.all.percentile(50)),
    ms(l.reference.latencies.all.percentile(99)),
  ]);
  const statementLists = LIFECYCLE_STEPS.map(
    (step) => `**${step}**\n\n${l.writes[step].texts.map(([text, n]) => `- ${n === 1 ? '' : `${fmt(n)} × `}\`${text.replace(/`/g, "'")}\``).join('\n')}`,
  ).join('\n\n');
  return [
    `### 1. Lifecycle throughput`,
    '',
    `${l.clients} concurrent clients, each on one keep-alive connection, run init → consumer pays (authorize) → status (the merchant reads the token) → capture back to back. ` +
      `The reference is a minimal Express 5 + postgres.js server (bench/reference-server.mjs) with the same four calls, each doing in one transaction as many single-row writes as the service's request of that step was measured to write ` +
      `(bench/write-count.mjs: the row versions that ${l.writeSamples} requests of each step created, told apart by their transaction id, xmin), and nothing else, on the same transport to PostgreSQL as the service (its Unix socket when local). Rounds alternate between the servers (each starts one round in three) so all see the same noise.`,
    '',
    table(
      ['', 'sequences/s', 'requests/s', 'sequences', 'failed', 'per round', 'CPU per sequence: server process', 'CPU per sequence: PostgreSQL backends'],
      [
        sideRow('service', l.service),
        sideRow('reference', l.reference),
        ...(l.referenceRows ? [sideRow("reference writing the service's rows", l.referenceRows)] : []),
        [
          'ratio',
          `**${n2(l.ratio)}**`,
          '',
          '',
          '',
          l.roundRatios.map(n2).join(', '),
          ratioOf(l.reference.cpuPerSequence?.serverMs, l.service.cpuPerSequence?.serverMs),
          ratioOf(l.reference.cpuPerSequence?.databaseMs, l.service.cpuPerSequence?.databaseMs),
        ],
      ],
    ),
    '',
    'CPU per sequence is read from /proc (user + system time of the server process and of the PostgreSQL backends serving it) over the measured rounds; ' +
      'the ratio row gives reference ÷ service, comparable with the throughput ratio.' +
      (l.referenceRows
        ? " The reference writing the service's rows (bench/reference-rows.mjs, in a database of its own on the same PostgreSQL) makes the same four calls with the reference's minimal code, " +
          "but writes the rows the service's requests write, into the service's own tables, one plain statement a row, in as many transactions as the service commits (a payment's processor request committed before the call and done after it, the card attempt and its windows' claim before it), " +
          "with the event payloads, the merchant's event log, kept answers and the realtime outbox row the service writes, published after the commit by a NOTIFY and deleted as the service's update bus does; it reads the merchant's processor account once a request that needs it. " +
          'It is one direct implementation of that data, not a floor and not a goal: ' +
          'what the service spends beyond it is roughly its code, what that reference spends beyond the plain one is mostly the data the service keeps. The goal stays 0.6 of the plain reference.'
        : ''),
    '',
    table(
      [
        'step',
        'rows written',
        'what the service writes',
        'SQL statements (service / reference)',
        'round trips to PostgreSQL (service / reference)',
        'service p50',
        'service p99',
        'reference p50',
        'reference p99',
      ],
      stepRows,
    ),
    '',
    'Statements and round trips are counted per request by a proxy on the wire between a server and PostgreSQL (bench/pg-wire-counter.mjs), background work (expiry sweeps, dispatcher polls) excluded. ' +
      'A round trip is every time the client waits for PostgreSQL: a Sync, a Flush or a simple query.',
    '',
    `<details><summary>The service's statements per request (first 160 characters)</summary>\n\n${statementLists}\n\n</details>`,
    failuresNote(l.service.failures),
  ].join('\n');
}

/** A callback phase under lifecycle load: deliveries, their rate and latency. */
function loadPhaseRow(name, phase) {
  return [
    name,
    n0(phase.deliveries),
    `${n1(phase.perSecondDuringLoad)} (as fast as updates come)`,
    ms(phase.latencies.p50),
    ms(phase.latencies.p99),
    ms(phase.latencies.max),
  ];
}

/** One side's row of the lifecycle table: throughput, rounds and CPU per sequence. */
function sideRow(name, side) {
  return [
    name,
    n1(side.perSecond),
    n1(side.perSecond * 4),
    n0(side.completed),
    n0(side.failed),
    side.rounds.map(n1).join(', '),
    ms(side.cpuPerSequence?.serverMs),
    ms(side.cpuPerSequence?.databaseMs),
  ];
}

function ratioOf(a, b) {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? n2(a / b) : '';
}

function failuresNote(failures) {
  if (!failures || failures.size === 0) return '';
  return `\nFailures: ${[...failures].map(([k, v]) => `${v} × \`${k}\``).join('; ')}\n`;
}

function captureSection(c) {
  return [
    `### 2. Capture throughput`,
    '',
    `${c.clients} concurrent clients capture ${100} cents at a time, round-robin over ${n0(c.holds)} authorizations (holds of 100,000.00 USD placed beforehand through the lifecycle).`,
    '',
    table(
      ['captures/s', 'captures', 'failed', 'p50', 'p99', 'max', 'server RSS at the end', 'peak RSS'],
      [[n1(c.perSecond), n0(c.completed), n0(c.failed), ms(c.latencies.p50), ms(c.latencies.p99), ms(c.latencies.max), mb(c.rssBytes), mb(c.peakRssBytes)]],
    ),
    failuresNote(c.failures),
  ].join('\n');
}

function refundsSection(f) {
  const row = (name, o) => [
    name,
    n1(o.perSecond),
    o.perRound.map(n1).join(', '),
    `${n0(o.completed)} (${n0(o.failed)})`,
    ms(o.latencies.p50),
    ms(o.latencies.p99),
    ms(o.latencies.max),
    ms(o.cpuPerOperation?.serverMs),
    ms(o.cpuPerOperation?.databaseMs),
  ];
  const cpuRatio = (key) => ratioOf(f.captures.cpuPerOperation?.[key], f.refunds.cpuPerOperation?.[key]);
  const wire = f.wire;
  return [
    `### 8. Refund throughput`,
    '',
    `${f.clients} concurrent clients, each on one keep-alive connection, refund paid sales from a backlog of ${n0(f.backlog)} (each refund gives back a whole sale of ${n0(f.amountCents / 100)}.00 USD, that sale's only refund), in ${f.rounds} rounds of ${n0(f.roundMs / 1000)} s that alternate with rounds of captures from a backlog of as many holds (each capture takes a whole hold of its own), so both see the same machine. ` +
      'The backlogs are one sale paid on its link and one hold placed through HTTP, each copied in the database (bench/store-seed.mjs). ' +
      'A refund finds its sale by number and reserves its amount with its processor request (one guarded update), inserts the pending refund in the statement of its event, commits, calls the sandbox processor outside any transaction, and records the outcome in a second transaction (the sale settled, then the guarded update of the refund in the statement of a second event); a capture reserves, calls and records the same way with one event. ' +
      `CPU per operation is read from /proc (the server process and its PostgreSQL backends) over the measured rounds; ${n0(f.used.sales)} sales and ${n0(f.used.holds)} holds were used.`,
    '',
    table(
      ['', 'per second', 'per round', 'done (failed)', 'p50', 'p99', 'max', 'server CPU / operation', 'PostgreSQL CPU / operation'],
      [
        row('refunds', f.refunds),
        row('captures', f.captures),
        ['refunds ÷ captures', `**${n2(f.ratio)}**`, f.roundRatios.map(n2).join(', '), '', '', '', '', cpuRatio('serverMs'), cpuRatio('databaseMs')],
      ],
    ),
    '',
    'The CPU ratios are captures ÷ refunds (comparable with the throughput ratio: 0.75 = a refund costs 1 / 0.75 captures).',
    '',
    table(
      ['one of each (counted over ' + n0(wire.samples) + ')', 'SQL statements', 'round trips to PostgreSQL', 'rows written', 'what it writes'],
      [
        ['refund', fmt(wire.refund.statements), fmt(wire.refund.roundTrips), fmt(wire.refund.rows), describeWrites(wire.refund)],
        ['capture', fmt(wire.capture.statements), fmt(wire.capture.roundTrips), fmt(wire.capture.rows), describeWrites(wire.capture)],
      ],
    ),
    '',
    'Counted as in metric 1, on a server of its own whose database connections go through the counting proxy (bench/pg-wire-counter.mjs); rows are those a request left its transaction id on (a row inserted and then updated by the same request counts once).',
    ...[
      ['refunds', f.refunds.failures],
      ['captures', f.captures.failures],
    ]
      .filter(([, failures]) => failures?.size > 0)
      .map(([kind, failures]) => `\nFailed ${kind}: ${[...failures].map(([k, v]) => `${v} × \`${k}\``).join('; ')}`),
  ].join('\n');
}

function storeGrowthSection(g) {
  const lines = [
    `### 3. Store growth`,
    '',
    `Two servers, each on a fresh database; one of them holds ${n0(g.stored.transactions)} transactions (${n0(g.stored.events)} events): copies of a real finished lifecycle ` +
      `(transaction, payment token, capture payment, three events), made with INSERT … SELECT generate_series in ${n1(g.seedSeconds)} s and then ANALYZEd. ` +
      `Both servers take the lifecycle load of metric 1 (8 clients each) at the same time, so both see the same machine; each is CPU-bound on the same cores, so its throughput follows its cost per sequence.`,
    '',
    table(
      ['store', 'sequences/s', 'p99 per request', 'per round', 'CPU per sequence: server', 'CPU per sequence: PostgreSQL'],
      [
        ['empty', n1(g.empty.perSecond), ms(g.empty.p99), '', ms(g.empty.cpuPerSequence?.serverMs), ms(g.empty.cpuPerSequence?.databaseMs)],
        [
          `${n0(g.seedCount)} stored`,
          n1(g.seeded.perSecond),
          ms(g.seeded.p99),
          '',
          ms(g.seeded.cpuPerSequence?.serverMs),
          ms(g.seeded.cpuPerSequence?.databaseMs),
        ],
        [
          'ratio',
          `**${n2(g.ratio)}**`,
          '',
          g.roundRatios.map(n2).join(', '),
          ratioOf(g.empty.cpuPerSequence?.serverMs, g.seeded.cpuPerSequence?.serverMs),
          ratioOf(g.empty.cpuPerSequence?.databaseMs, g.seeded.cpuPerSequence?.databaseMs),
        ],
      ],
    ),
    '',
    'The CPU ratios (empty ÷ stored, 1.00 = a sequence costs the same) are steadier than throughput on a shared machine: a store that grows slower shows there first.',
  ];
  if (g.queries) {
    lines.push(
      '',
      'EXPLAIN ANALYZE of the hot statements (median of 5 executions, rolled back):',
      '',
      table(
        ['statement', 'empty store', `${n0(g.seedCount)} stored`, `plan with ${n0(g.seedCount)} stored`],
        g.queries.map((q) => [q.name, ms(q.emptyMs), ms(q.seededMs), q.plan.replace(/\|/g, '\\|')]),
      ),
    );
  }
  if (g.listPages) {
    const { empty, seeded } = g.listPages;
    lines.push(
      '',
      `A page of \`GET /transactions\` on each store after the load (one connection, each kind asked ${n0(seeded.pages[0]?.count)} times in a row, warm): ` +
        'newest first by keyset on an index, so a page should cost the same whatever the store holds.',
      '',
      table(
        ['page', `${n0(empty.stored)} stored: p50 (p99)`, `${n0(seeded.stored)} stored: p50 (p99)`, 'ratio of p50'],
        seeded.pages.map((page, i) => {
          const small = empty.pages[i];
          return [page.kind, `${ms(small?.p50)} (${ms(small?.p99)})`, `${ms(page.p50)} (${ms(page.p99)})`, ratioOf(small?.p50, page.p50)];
        }),
      ),
    );
  }
  return lines.join('\n');
}

function callbacksSection(c) {
  return [
    `### 4. Callback delivery`,
    '',
    `On a database and a server of its own (started for this metric, the only dispatcher of that database), so the figures do not depend on what the metrics before it left. A receiver on 127.0.0.1 (its own process) answers 200 at once. Latency: lifecycles with a callbackURL (the consumer payment and the capture each queue one delivery); ` +
      `latency is the receipt time minus the update's \`updatedAt\`. Throughput: a backlog as after a receiver outage: the deliveries made so far are started again, as \`POST /callbacks/:id/redeliver\` does, ` +
      `and more are queued for earlier events (the outbox rows an update with a callbackURL writes, with the event's real payload), in one transaction with the wake-up notification; ` +
      `the running dispatcher's drain is timed from that commit to the last receipt.`,
    '',
    table(
      ['phase', 'deliveries', 'deliveries/s', 'p50', 'p99', 'max'],
      [
        loadPhaseRow('1 client of lifecycle load', c.light),
        loadPhaseRow('8 clients of lifecycle load', c.loaded),
        ['backlog drain', n0(c.drain.deliveries), `**${n0(c.drain.perSecond)}** (${n1(c.drain.seconds)} s)`, '', '', ''],
      ],
    ),
    '',
    `While draining, each delivery took ${ms(c.drain.serverCpuPerDeliveryMs)} of server CPU and ${ms(c.drain.databaseCpuPerDeliveryMs)} of PostgreSQL CPU.`,
  ].join('\n');
}

function websocketSection(w) {
  if (!w.measured)
    return `### 5. Websocket fan-out\n\nNot measured: ${w.reason}. The harness checks by upgrading \`/ws\` with the merchant's API key; it measures as soon as the server serves it.`;
  return [
    `### 5. Websocket fan-out`,
    '',
    `${n0(w.subscribers)} merchant connections (\`Authorization: Bearer\`) each subscribe to one authorization; ${w.updates} partial captures follow one another; ` +
      `latency is the receipt time of each \`transaction.updated\` frame minus its \`updatedAt\`.`,
    '',
    table(
      ['subscribers', 'updates', 'frames expected', 'frames received', 'p50', 'p99', 'max'],
      [[n0(w.subscribers), n0(w.updates), n0(w.expected), n0(w.received), ms(w.latencies.p50), ms(w.latencies.p99), ms(w.latencies.max)]],
    ),
    '',
    table(
      [
        'capture request (p50)',
        'first subscriber reached (median over updates)',
        'last subscriber reached (median)',
        'server CPU per update',
        'load client CPU per update',
      ],
      [[ms(w.captureP50), ms(w.firstReceiptP50), ms(w.lastReceiptP50), ms(w.serverCpuPerUpdateMs), ms(w.clientCpuPerUpdateMs)]],
    ),
    '',
    'Server CPU per update covers the capture request and the fan-out; the load client (this harness, on the same two cores) reads every frame.',
  ].join('\n');
}

function pageTtfbSection(t) {
  return [
    `### 7. Hosted page time to first byte`,
    '',
    `A probe client alternates \`GET /pay/:linkId\` (the hosted payment page of a pending transaction: the HTML a consumer's phone loads after scanning the QR code) and the merchant's \`GET /transactions/:n\` of the same transaction, one request at a time, while ${t.loadClients} clients run the lifecycle (${n1(t.sequencesPerSecond)} sequences/s). Time to first byte: from sending the request to its status line and headers.`,
    '',
    table(
      ['request', 'samples', 'p50', 'p99', 'max'],
      [
        ['`GET /pay/:linkId` (page)', n0(t.page.count), ms(t.page.p50), ms(t.page.p99), ms(t.page.max)],
        ['`GET /transactions/:n` (JSON)', n0(t.status.count), ms(t.status.p50), ms(t.status.p99), ms(t.status.max)],
        ['ratio page ÷ JSON', '', n2(t.page.p50 / t.status.p50), n2(t.page.p99 / t.status.p99), ''],
      ],
    ),
  ].join('\n');
}

function sdkSection(s) {
  const rows = s.assets.map((a) =>
    a.built
      ? [
          a.name,
          a.parts.map((p) => `\`${p.path.split('?')[0]}\``).join(' + '),
          kb(a.rawBytes),
          kb(a.gzipBytes),
          kb(a.brotliBytes),
          a.goalGzipBytes ? `≤ ${kb(a.goalGzipBytes)}` : '–',
          met(a.goalGzipBytes ? a.gzipBytes <= a.goalGzipBytes : null),
        ]
      : [a.name, `\`${a.path}\``, 'not built yet', '', '', `≤ ${kb(a.goalGzipBytes)}`, '–'],
  );
  return [
    `### 6. SDK weight`,
    '',
    `Fetched from the running server; gzip level 9 and brotli quality 11 (node:zlib). A frame counts with the same-origin scripts and stylesheets it loads. ` +
      `\`/sdk/manifest.json\`: ${s.manifest ? 'served; every file it lists is measured' : 'not served yet'}.`,
    '',
    table(['asset', 'path', 'raw', 'gzip', 'brotli', 'goal (gzip)', ''], rows),
  ].join('\n');
}

function profileSection(p, title, rate) {
  return [
    `#### ${title}`,
    '',
    `\`node --cpu-prof\` on a server of its own on the same database, ${p.what} (${rate} while profiled); ${n1(p.totalMs / 1000)} s of samples; ` +
      `the server's main thread was busy ${pct(p.busyShare)} of the time.`,
    '',
    table(
      ['area', 'self time', 'share'],
      p.areas.map((a) => [a.name.replace(/\|/g, '\\|'), ms(a.ms), pct(a.share)]),
    ),
    '',
    'Functions with the most self time:',
    '',
    table(
      ['function', 'called mostly from', 'self time', 'share'],
      p.selfTop.map((a) => [`\`${a.name}\``, a.caller ? `\`${a.caller}\`` : '', ms(a.ms), pct(a.share)]),
    ),
    '',
    'Our functions with the most total time (self plus callees):',
    '',
    table(
      ['function', 'total time', 'share'],
      p.totalTop.map((a) => [`\`${a.name}\``, ms(a.ms), pct(a.share)]),
    ),
  ].join('\n');
}

/** `; server CPU per sequence +1.2 %`: the CPU cost beside a throughput cost (absent from reports made before it). */
function cpuNote(cost) {
  return cost ? `; server CPU per sequence ${signedPct(cost.server)}` : '';
}

const signedPct = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : '−'}${pct(Math.abs(x))}` : 'n/a');

function observabilitySection(o) {
  return [
    `### 9. Observability cost`,
    '',
    `Three servers on one database, 8 clients of the lifecycle each in turn, ${o.rounds} alternating rounds of ${n0(o.roundMs / 1000)} s (each round starts with the next server): one with neither metrics nor traces, one with \`METRICS_PORT\` set (every request counted and timed; \`GET /metrics\` scraped every 5 s, ${n0(o.metrics.scrapes)} scrapes), one with \`OTEL_EXPORTER_OTLP_ENDPOINT\` set (a span per request, database transaction, processor call and callback attempt, batched to a local OTLP/HTTP collector that accepts every export and discards it: ${n0(o.tracing.exports)} exports, ${kb(o.tracing.exportedBytes)}). The cost is the throughput lost against the server with both off; beside it, the CPU per sequence of each server process and of its own PostgreSQL backends (from /proc), which the machine's noise moves much less than the throughput.`,
    '',
    table(
      ['server', 'sequences/s', 'sequences (failed)', 'cost', 'server CPU / sequence', 'PostgreSQL CPU / sequence', 'CPU cost (server, PostgreSQL)'],
      [
        [
          'both off',
          n1(o.off.perSecond),
          `${n0(o.off.completed)} (${n0(o.off.failed)})`,
          '',
          ms(o.off.cpuPerSequence?.serverMs),
          ms(o.off.cpuPerSequence?.databaseMs),
          '',
        ],
        [
          'metrics on',
          n1(o.metrics.perSecond),
          `${n0(o.metrics.completed)} (${n0(o.metrics.failed)})`,
          pct(o.metricsCost),
          ms(o.metrics.cpuPerSequence?.serverMs),
          ms(o.metrics.cpuPerSequence?.databaseMs),
          o.metricsCpuCost ? `${signedPct(o.metricsCpuCost.server)}, ${signedPct(o.metricsCpuCost.database)}` : '',
        ],
        [
          'tracing on',
          n1(o.tracing.perSecond),
          `${n0(o.tracing.completed)} (${n0(o.tracing.failed)})`,
          pct(o.tracingCost),
          ms(o.tracing.cpuPerSequence?.serverMs),
          ms(o.tracing.cpuPerSequence?.databaseMs),
          o.tracingCpuCost ? `${signedPct(o.tracingCpuCost.server)}, ${signedPct(o.tracingCpuCost.database)}` : '',
        ],
      ],
    ),
  ].join('\n');
}

const WHERE_HEADING = '## Where the time goes';
const ERRORS_HEADING = '## Not measured because of errors';

/** Where the part of `doc` under `heading` (a `## ` line) starts and ends (the next `## ` heading, or the end). */
function partOf(doc, heading) {
  const at = doc.search(new RegExp(`^${heading}$`, 'm'));
  if (at === -1) return null;
  const next = doc.slice(at + 1).search(/^## /m);
  return { from: at, to: next === -1 ? doc.length : at + 1 + next };
}

/**
 * `text` with its characters from `start` to `end` replaced by `section` (or removed, for ''), which ends with one
 * blank line before whatever follows it and with a single newline at the end of the text; what comes before it ends
 * with a blank line too (a fresh report's last section may end without one).
 */
function replaceSection(text, start, end, section) {
  const rest = text.slice(end);
  const before = text.slice(0, start);
  if (!section) return rest ? before + rest : before.replace(/\n*$/, '\n');
  const head = before === '' || before.endsWith('\n\n') ? before : before.replace(/\n*$/, '\n\n');
  return head + section.replace(/\n*$/, rest ? '\n\n' : '\n') + rest;
}

/**
 * A run of some metrics only (`--only`) written into an earlier full report: its goal rows and its sections replace
 * those of the same metrics (or join them, in metric order), and the header says when they were measured; the rest
 * of the earlier report (its machine, its other metrics) stays as it was.
 */
export function mergeReport(previous, r) {
  const fresh = renderReport(r);
  const measured = new Set(goals(r).map((g) => g.metric));
  const rowMetric = (line) => Number(/^\| (\d+) \|/.exec(line)?.[1] ?? NaN);
  // The goals table's rows (only that table's): a measured metric's rows take the place of its earlier ones, or
  // follow the others; the rest keep their order.
  const lines = previous.split('\n');
  const goalsAt = lines.indexOf('## Goals');
  const firstRow = lines.findIndex((line, i) => i > goalsAt && Number.isFinite(rowMetric(line)));
  let lastRow = firstRow;
  while (lastRow + 1 < lines.length && lines[lastRow + 1].startsWith('|')) lastRow += 1;
  const freshLines = fresh.split('\n');
  const freshGoalsAt = freshLines.indexOf('## Goals');
  const freshRows = (metric) => {
    const found = [];
    for (let i = freshGoalsAt + 1; i < freshLines.length && !freshLines[i].startsWith('## '); i++)
      if (rowMetric(freshLines[i]) === metric) found.push(freshLines[i]);
    return found;
  };
  const rows = [];
  const placed = new Set();
  for (const line of lines.slice(firstRow, lastRow + 1)) {
    const metric = rowMetric(line);
    if (!measured.has(metric)) rows.push(line);
    else if (!placed.has(metric)) {
      placed.add(metric);
      rows.push(...freshRows(metric));
    }
  }
  for (const metric of measured) if (!placed.has(metric)) rows.push(...freshRows(metric));
  lines.splice(firstRow, lastRow - firstRow + 1, ...rows);
  let text = lines.join('\n');
  // Sections under "## Measurements": `### N. …` up to the next `### ` or `## `.
  const sectionRe = (metric) => new RegExp(`^### ${metric}\\. [\\s\\S]*?(?=^###? |(?![\\s\\S]))`, 'm');
  const measurementsEnd = () => {
    const start = text.indexOf('## Measurements');
    const next = text.slice(start + 1).search(/^## /m);
    return next === -1 ? text.length : start + 1 + next;
  };
  for (const metric of [...measured].sort((a, b) => a - b)) {
    const section = sectionRe(metric).exec(fresh.slice(fresh.indexOf('## Measurements')))?.[0];
    if (!section) continue;
    const old = sectionRe(metric).exec(text.slice(0, measurementsEnd()));
    text = old ? replaceSection(text, old.index, old.index + old[0].length, section) : replaceSection(text, measurementsEnd(), measurementsEnd(), section);
  }
  // The diagnosis of a measured metric under "## Where the time goes" (`### N. …`, its profile's `####` in it): the
  // fresh one takes the place of the earlier one or joins the others; with its goals now met, the earlier one goes.
  const freshWhere = partOf(fresh, WHERE_HEADING);
  for (const metric of [...measured].sort((a, b) => a - b)) {
    const note = freshWhere ? sectionRe(metric).exec(fresh.slice(freshWhere.from, freshWhere.to))?.[0] : undefined;
    const where = partOf(text, WHERE_HEADING);
    const old = where ? sectionRe(metric).exec(text.slice(where.from, where.to)) : null;
    if (where && old) text = replaceSection(text, where.from + old.index, where.from + old.index + old[0].length, note ?? '');
    else if (note && where) text = replaceSection(text, where.to, where.to, note);
    else if (note && freshWhere) {
      // No diagnosis yet: the part comes with its heading and introduction, before the errors' list if there is one.
      const intro = fresh.slice(freshWhere.from, freshWhere.from + fresh.slice(freshWhere.from).search(/^### /m));
      const errors = partOf(text, ERRORS_HEADING);
      const at = errors ? errors.from : text.length;
      text = replaceSection(text, at, at, `${intro}${note}`);
    }
  }
  return withPartialRunNote(text, measured, `by \`${r.command}\` on ${r.date} (${n0(r.durationS)} s)`);
}

/**
 * The header names the partial run after the notes of earlier partial runs: an earlier note keeps the metrics it
 * measured that this run did not measure again, and goes when none is left.
 */
export function withPartialRunNote(text, measured, how) {
  return text.replace(/^(Written by [^\n]*?)((?: Metrics? [\d, ]+ measured again by [^\n]*?\([\d,]+ s\)\.)*)$/m, (_all, head, notes) => {
    const kept = [...notes.matchAll(/ Metrics? ([\d, ]+) measured again (by [^\n]*?\([\d,]+ s\))\./g)].map((m) =>
      partialRunNote(
        m[1]
          .split(', ')
          .map(Number)
          .filter((metric) => !measured.has(metric)),
        m[2],
      ),
    );
    return `${head}${kept.join('')}${partialRunNote([...measured], how)}`;
  });
}

/** ` Metrics 10, 14 measured again by … (n s).`, or nothing when no metric is left to name. */
function partialRunNote(metrics, how) {
  if (metrics.length === 0) return '';
  const sorted = [...metrics].sort((a, b) => a - b);
  return ` Metric${sorted.length > 1 ? 's' : ''} ${sorted.join(', ')} measured again ${how}.`;
}

export function renderReport(r) {
  const rows = goals(r);
  const missed = new Set(rows.filter((g) => g.ok === false).map((g) => g.metric));
  const m = r.machine;
  const out = [
    '# Benchmarks',
    '',
    `Written by \`${r.command}\` (bench/run.mjs) on ${r.date}; the run took ${n0(r.durationS)} s. Do not edit by hand: run \`pnpm bench\` again. ` +
      'The diagnosis of missed goals is kept in bench/findings.md and copied here for the goals that are missed.',
    '',
    table(
      ['machine', ''],
      [
        ['CPU', `${m.cpu}, ${m.cores} cores (shared with other work: load average ${m.loadAtStart} at the start)`],
        ['memory', `${m.memoryGiB} GiB`],
        ['OS', m.os],
        ['Node.js', m.node],
        [
          'database',
          `${m.postgres} (${r.storeKind === 'local' ? 'local server on 127.0.0.1:5432, a fresh database per server, dropped afterwards' : 'the embedded PostgreSQL, in a temporary DATA_DIR'})`,
        ],
        [
          'server',
          `\`node dist/main.js\` in server/ (the production bundle of \`pnpm build\`, built from the code under test), SVC_MODE=sandbox, LOG_LEVEL=${r.logLevel} (request logging at info costs throughput), DATABASE_POOL_MAX default (10), rate limits raised to 1,000,000/s`,
        ],
        ['load client', 'bench/load-client.mjs: node:http, one keep-alive connection per client, closed loop; all samples kept (nearest-rank percentiles)'],
      ],
    ),
    '',
    'The machine is shared and noisy, so comparisons are made inside one run: the service and the reference in alternating rounds (metric 1), the empty and the full store under load at the same time (metric 3). ' +
      'Absolute numbers move from run to run; CPU time per sequence, statements and round trips per request move much less.',
    '',
    '## Goals',
    '',
    table(
      ['#', 'metric', 'value', 'goal', ''],
      rows.map((g) => [g.metric, g.what, g.value, g.goal, met(g.ok)]),
    ),
    '',
    '## Measurements',
    '',
  ];
  if (r.lifecycle) out.push(lifecycleSection(r.lifecycle), '');
  if (r.capture) out.push(captureSection(r.capture), '');
  if (r.refunds) out.push(refundsSection(r.refunds), '');
  if (r.storeGrowth) out.push(storeGrowthSection(r.storeGrowth), '');
  if (r.callbacks) out.push(callbacksSection(r.callbacks), '');
  if (r.websocket) out.push(websocketSection(r.websocket), '');
  if (r.sdk) out.push(sdkSection(r.sdk), '');
  if (r.pageTtfb) out.push(pageTtfbSection(r.pageTtfb), '');
  if (r.observability) out.push(observabilitySection(r.observability), '');
  if (r.browser) out.push(browserSection(r.browser), '');
  if (r.failover) out.push(failoverSection(r.failover), '');
  if (r.bus) out.push(busSection(r.bus), '');
  if (r.stripe) out.push(stripeSection(r.stripe), '');
  if (r.webhooks) out.push(webhooksSection(r.webhooks), '');

  const notes = [];
  const sections = {
    1: ['lifecycle', 'Lifecycle throughput and latency'],
    2: ['capture', 'Server memory'],
    3: ['store-growth', 'Store growth'],
    4: ['callbacks', 'Callback delivery'],
    5: ['websocket', 'Websocket fan-out'],
    6: ['sdk-weight', 'SDK weight'],
    8: ['refunds', 'Refund throughput and latency'],
    9: ['observability', 'Observability cost'],
    10: ['browser', "The shopper's side in the browser"],
  };
  for (const [metric, [name, title]] of Object.entries(sections)) {
    if (!missed.has(Number(metric))) continue;
    const text = findings(name);
    const parts = [`### ${metric}. ${title}`];
    if (text) parts.push('', text);
    if (Number(metric) === 1 && r.profile)
      parts.push('', profileSection(r.profile, 'CPU profile of the server during the lifecycle load', `${n1(r.profile.perSecond)} sequences/s`));
    if (Number(metric) === 5 && r.websocket?.profile)
      parts.push('', profileSection(r.websocket.profile, 'CPU profile of the server during the fan-out', `${n1(r.websocket.profile.perSecond)} updates/s`));
    if (Number(metric) === 4 && r.callbacks?.profile)
      parts.push(
        '',
        profileSection(r.callbacks.profile, 'CPU profile of the server draining the callback backlog', `${n0(r.callbacks.profile.perSecond)} deliveries/s`),
      );
    if (parts.length > 1) notes.push(parts.join('\n'));
  }
  if (notes.length > 0) {
    out.push(
      '## Where the time goes',
      '',
      'For every missed goal: the diagnosis (bench/findings.md, written from the counts, CPU figures and profiles above and the code they point at) and the CPU profile taken in this run. Fixes made since the first measurement are named in each section; what is left is described with its fix.',
      '',
      notes.join('\n\n'),
      '',
    );
  }
  if (r.errors.length > 0) out.push('## Not measured because of errors', '', ...r.errors.map((e) => `- ${e}`), '');
  return out.join('\n');
}
