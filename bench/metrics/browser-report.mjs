// Metric 10 in BENCHMARKS.md: its goal rows and its section (report.mjs calls both).
import { n2, ratio, table } from '../markdown-table.mjs';

const ms = (x) => (Number.isFinite(x) ? `${x < 10 ? x.toFixed(1) : Math.round(x)} ms` : 'n/a');
const kb = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(1)} KB` : 'n/a');

export const READY_GOAL = 1.5;
export const PAY_GOAL = 1.3;
export const LANGUAGE_GOAL = 1.1;

/**
 * The goal rows of metric 10 (reported, never asserted): per surface, time to ready p95 ≤ 1.5 × its reference's and
 * time to pay p95 ≤ 1.3 × its replay's; for Elements and the hosted page, time to ready in he ≤ 1.10 × in en (p95).
 * @param {any} b the metric's result
 * @param {(metric: number, what: string, value: string, goal: string, ok: boolean | null) => void} add
 */
export function browserGoals(b, add) {
  if (!b.measured) {
    add(10, 'time to ready and time to pay in headless Chromium', `not measured: ${b.reason}`, `≤ ${READY_GOAL} × and ≤ ${PAY_GOAL} × the references`, null);
    return;
  }
  for (const s of b.surfaces) {
    const r = ratio(s.ready.p95, s.referenceReady.p95);
    add(
      10,
      `${s.name}: time to ready p95 ÷ reference p95`,
      `${n2(r)} (${ms(s.ready.p95)} ÷ ${ms(s.referenceReady.p95)}; p50 ${ms(s.ready.p50)} ÷ ${ms(s.referenceReady.p50)})`,
      `≤ ${READY_GOAL}`,
      Number.isFinite(r) ? r <= READY_GOAL : null,
    );
  }
  for (const s of b.surfaces) {
    const r = ratio(s.pay.p95, s.referencePay.p95);
    add(
      10,
      `${s.name}: time to pay p95 ÷ its requests replayed p95`,
      `${n2(r)} (${ms(s.pay.p95)} ÷ ${ms(s.referencePay.p95)}; p50 ${ms(s.pay.p50)} ÷ ${ms(s.referencePay.p50)})`,
      `≤ ${PAY_GOAL}`,
      Number.isFinite(r) ? r <= PAY_GOAL : null,
    );
  }
  for (const s of b.surfaces.filter((x) => x.payFrictionless)) {
    const f = s.payFrictionless;
    add(
      10,
      `${s.name}: time to pay with the frictionless 3-D Secure card`,
      `p95 ${ms(f.p95)}, p50 ${ms(f.p50)} (the approving card: p95 ${ms(s.pay.p95)}, p50 ${ms(s.pay.p50)})`,
      'none set',
      null,
    );
  }
  for (const s of b.surfaces.filter((x) => x.readyHe)) {
    const r = ratio(s.readyHe.p95, s.ready.p95);
    add(
      10,
      `${s.name}: time to ready in he ÷ in en (p95)`,
      `${n2(r)} (${ms(s.readyHe.p95)} ÷ ${ms(s.ready.p95)}; p50 ${ms(s.readyHe.p50)} ÷ ${ms(s.ready.p50)})`,
      `≤ ${LANGUAGE_GOAL}`,
      Number.isFinite(r) ? r <= LANGUAGE_GOAL : null,
    );
  }
}

const FIELD_STATES = {
  shown: 'in its markup, shown: ready at the first paint',
  hidden: 'in its markup inside a hidden part, shown by its script',
  absent: 'not in its markup: its script puts it in',
};

function waterfall(s) {
  const w = s.waterfall;
  const rows = w.rows.map((r) => [`\`${r.path}\``, r.type, String(r.status || 'failed'), ms(r.startMs), ms(r.endMs), ms(r.endMs - r.startMs), kb(r.bytes)]);
  const sockets = w.sockets.map((x) => `a websocket to \`${x.path}\` opened at about ${ms(x.atMs)}`).join('; ');
  const marks = (w.marks ?? [])
    .sort((a, b) => a.atMs - b.atMs)
    .map((m) => `${m.where} ${m.name} ${ms(m.atMs)}`)
    .join(', ');
  return [
    `<details><summary>${s.name}: the requests of one cold load (ready at ${ms(w.readyMs)}, paid after a click at ${ms(w.clickMs)})</summary>`,
    '',
    table(['request', 'type', 'status', 'start', 'end', 'took', 'body'], rows),
    '',
    `Times from the top page's navigation start (Chromium's request timing); every request up to the shopper's payment${sockets ? `; ${sockets}` : ''}.` +
      (marks ? ` The documents' marks: ${marks}; the field ready at ${ms(w.readyMs)}.` : ''),
    '',
    '</details>',
  ].join('\n');
}

/** `### 10. The shopper's side in the browser` */
export function browserSection(b) {
  if (!b.measured) return `### 10. The shopper's side in the browser\n\nNot measured: ${b.reason}.`;
  const readyRows = b.surfaces.map((s) => [
    s.name,
    String(s.ready.count),
    ms(s.ready.p50),
    ms(s.ready.p95),
    ms(s.referenceReady.p50),
    ms(s.referenceReady.p95),
    `**${n2(ratio(s.ready.p95, s.referenceReady.p95))}**`,
    s.readyHe ? `${ms(s.readyHe.p50)} / ${ms(s.readyHe.p95)}` : '',
    s.readyHe ? `**${n2(ratio(s.readyHe.p95, s.ready.p95))}** (p50 ${n2(ratio(s.readyHe.p50, s.ready.p50))})` : '',
  ]);
  const payRows = b.surfaces.map((s) => [
    s.name,
    String(s.pay.count),
    ms(s.pay.p50),
    ms(s.pay.p95),
    ms(s.referencePay.p50),
    ms(s.referencePay.p95),
    `**${n2(ratio(s.pay.p95, s.referencePay.p95))}**`,
    `${s.replayed.map((x) => `\`${x}\``).join(', ')} (from ${s.replayedFrom})`,
  ]);
  const sizeRows = b.surfaces.map((s) => [
    s.name,
    b.referenceSizes[s.surface].map((p) => `\`${p.path.replace('/reference/', '')}\` ${p.bytes.toLocaleString('en-US')} B`).join(', '),
    b.fieldStates[s.surface] ? FIELD_STATES[b.fieldStates[s.surface]] : 'a button its script puts in the page',
  ]);
  return [
    `### 10. The shopper's side in the browser`,
    '',
    `Headless ${b.chromium} driven by playwright-core, a fresh browser context per run (a cold cache: no cached file, no open connection, no compiled code kept), a 1000 × 800 viewport, ` +
      `${b.runs} rounds in ${Math.round(b.seconds)} s. Each round takes the four surfaces in turn (starting with another one each round) and, for each, its measured load and payment, its reference page, ` +
      'the replay of its payment and (Elements, the hosted page) its load in Hebrew and its payment with the frictionless 3-D Secure card, alternating which goes first. ' +
      "The merchant pages are the bench's own (bench/metrics/browser-pages.mjs: the demo shop's embedding, the SDK from the service with its SRI hash, a client ID allowing their origin) on `http://localhost:<port>`, another site than the service on `127.0.0.1`, as a shop's is; the hosted page is opened on a new 12.50 USD transaction each time.",
    '',
    "**Time to ready**: from the top page's navigation start to the card number field (Express: the first wallet button) being present, visible (not covered), enabled and editable, in whatever frame it is, and its frame visible in the page, at the next animation frame, and not before its document's first paint (a field laid out before it is not on the screen yet). " +
      'Timed in the browser: a script added to every frame (cross-origin ones too) watches with a MutationObserver and on every animation frame and reports `performance.timeOrigin + performance.now()`. ' +
      "**Reference**: a page loading one script of the same byte size as the SDK's, which puts in an iframe of the same size as its frame (the frame's page and its script), or for the hosted page a page of its size with a style sheet (inline, of the same size, where the service inlines its own) and a script of theirs; " +
      "served from 127.0.0.1 (the service's host) by a node:http server with the headers the service sent for each file (cache, type, CORS, CSP; no compression: the service sends none). " +
      "Their content is a comment and the least a widget must do: the script puts the frame in, and the field is where the service's document has it (below).",
    '',
    table(['surface', 'runs', 'p50', 'p95', 'reference p50', 'reference p95', 'p95 ÷ reference', 'in he: p50 / p95', 'he ÷ en (p95)'], readyRows),
    '',
    table(['surface', "reference files (as many bytes as the service's)", "the field in the service's document"], sizeRows),
    '',
    "**Time to pay**: from the pay click (the page's click event time; Express: the sandbox sheet's Pay) to the SDK's `pay` callback (Elements, iframe SDK), `onPay` (Express) or the confirmation on the hosted page (its approved view shown: seen by the MutationObserver, at the next animation frame; the script asks for no frame while the shopper pays), with the sandbox's approving card 4242 4242 4242 4242 or PayPal. " +
      "**Reference**: the payment's HTTP requests, recorded from a measured run, sent again with plain `fetch` from a page of the origin that sent them, in the same order and with the same parallelism (a request waits for those that had ended before it started), on a fresh session (the widget's, opened as the load opened it) or a new transaction (the hosted page's), timed in that page to the last response's body. " +
      "That page stays open from one replay to the next (one per origin), so its connections are warm, as the shopper's page's are when they pay; a response status other than the measured payment's fails the run.",
    '',
    table(['surface', 'runs', 'p50', 'p95', 'replay p50', 'replay p95', 'p95 ÷ replay', 'requests replayed'], payRows),
    '',
    `**Time to pay with 3-D Secure, frictionless**: in the same rounds, a load and payment of their own, timed as above, with the sandbox's frictionless 3-D Secure card ${b.frictionlessCard} (the bank authenticates without the consumer: no dialog, approved at once); ` +
      "before the rounds, one such payment per surface is checked to have been one (its confirmation's `threeDSecure.flow` is `frictionless`). No goal is set: it is measured.",
    '',
    table(
      ['surface', 'runs', 'p50', 'p95', 'the approving card: p50', 'p95', 'p95 ÷ the approving card'],
      b.surfaces
        .filter((s) => s.payFrictionless)
        .map((s) => [
          s.name,
          String(s.payFrictionless.count),
          ms(s.payFrictionless.p50),
          ms(s.payFrictionless.p95),
          ms(s.pay.p50),
          ms(s.pay.p95),
          n2(ratio(s.payFrictionless.p95, s.pay.p95)),
        ]),
    ),
    '',
    ...b.surfaces.map(waterfall).flatMap((d) => [d, '']),
  ].join('\n');
}
