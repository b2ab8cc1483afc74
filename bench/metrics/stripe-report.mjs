// Metric 13 in BENCHMARKS.md: its goal rows and its section (report.mjs calls both).
import { n1, n2, ratio, table } from '../markdown-table.mjs';

const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : 'n/a');

/**
 * The goal rows of metric 13 (none set: it is measured), one per sequence: the service's median ÷ the direct calls'.
 * @param {any} s the metric's result
 * @param {(metric: number, what: string, value: string, goal: string, ok: boolean | null) => void} add
 */
export function stripeGoals(s, add) {
  if (!s.measured) {
    add(13, "Stripe connector: the service's sequences ÷ the same Stripe calls made directly (localstripe)", `not measured: ${s.reason}`, 'none set', null);
    return;
  }
  for (const r of s.results) {
    add(
      13,
      `Stripe connector, ${r.name}: the service ÷ the same Stripe calls made directly (localstripe), median`,
      `${n2(ratio(r.service.p50, r.direct.p50))} (${ms(r.service.p50)} ÷ ${ms(r.direct.p50)}; p95 ${ms(r.service.p95)} ÷ ${ms(r.direct.p95)})`,
      'none set',
      null,
    );
  }
}

/** @param {any} s the metric's result */
export function stripeSection(s) {
  if (!s.measured) return `### 13. Stripe connector overhead\n\nNot measured: ${s.reason}.`;
  const rows = s.results.map((r) => [
    r.name,
    String(r.service.count),
    ms(r.service.p50),
    ms(r.service.p95),
    ms(r.direct.p50),
    ms(r.direct.p95),
    `**${n2(ratio(r.service.p50, r.direct.p50))}**`,
    n2(ratio(r.service.p95, r.direct.p95)),
    ms(r.service.p50 - r.direct.p50),
    ms(r.sandbox?.p50),
    ms(r.sandbox?.p95),
    ms(r.service.p50 - r.direct.p50 - r.sandbox?.p50),
  ]);
  return [
    '### 13. Stripe connector overhead',
    '',
    "A server of the same build with `PROCESSOR=stripe`, its `STRIPE_API_BASE` a localstripe the harness starts (an emulation of Stripe's API in Python, in memory, on loopback), on a database of its own. " +
      `One client makes ${s.sequences} rounds, one sequence at a time: through the service, a sale, an authorization and its capture, and a refund of the sale, over HTTP as a merchant and a consumer do; ` +
      "in turn with them (each round starts with the next side), the Stripe API calls the connector makes for each, sent directly to the same localstripe with the same `stripe` package, with the connector's Idempotency-Keys and metadata; " +
      'and the same sequences through a second server of the same build on the same database with the sandbox processor (the same merchant; no call leaves the process). ' +
      "Each sequence is timed from its first request sent to its last answer. The service less the direct calls is the service's own work around the processor's: its HTTP requests, its rows, the processor request committed before each call and recorded after it; " +
      'less the sandbox side as well, what is left is what the connector adds beyond its calls (near zero when it adds nothing; the medians of three noisy sides do not subtract exactly). ' +
      `localstripe answers each call in a few milliseconds, far faster than Stripe does over the Internet, so the ratio here is the highest it gets; the difference in milliseconds is what a real Stripe call would carry on top. No goal is set: it is measured. Load average ${n1(s.loadAverage)} on two cores at the start.`,
    '',
    table(
      [
        'sequence',
        'runs',
        'service p50',
        'service p95',
        'direct p50',
        'direct p95',
        'p50 ÷ direct',
        'p95 ÷ direct',
        'service − direct (p50)',
        'on the sandbox: p50',
        'p95',
        'service − direct − sandbox (p50)',
      ],
      rows,
    ),
    '',
    `The service's requests in those sequences, p50 / p95 on Stripe${s.requests?.[0]?.sandbox ? ' (on the sandbox)' : ''}: ${(s.requests ?? [])
      .map((r) => `${r.step} ${ms(r.p50)} / ${ms(r.p95)}${r.sandbox ? ` (${ms(r.sandbox.p50)} / ${ms(r.sandbox.p95)})` : ''}`)
      .join(', ')}. Init, status and the HTTP of every request are what the service adds without a processor call in them.` +
      (s.calls ? ` The direct calls, p50 / p95: ${s.calls.map((r) => `${r.step} ${ms(r.p50)} / ${ms(r.p95)}`).join(', ')}.` : ''),
    '',
    table(
      ['sequence', 'through the service', "the connector's Stripe calls, made directly"],
      s.results.map((r) => [r.name, r.throughService, r.directCalls]),
    ),
  ].join('\n');
}
