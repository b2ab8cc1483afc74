// Metric 14 in BENCHMARKS.md: its goal rows and its section (report.mjs calls both).
import { n0, n1, table } from '../markdown-table.mjs';

const bold = (text, yes) => (yes ? `**${text}**` : text);
const ms = (x) => (Number.isFinite(x) ? `${x < 10 ? x.toFixed(1) : Math.round(x)} ms` : 'n/a');

/**
 * The goal rows of metric 14 (none set: it is measured).
 * @param {any} w the metric's result
 * @param {(metric: number, what: string, value: string, goal: string, ok: boolean | null) => void} add
 */
export function webhookGoals(w, add) {
  add(
    14,
    `webhook endpoints' fan-out: events per second delivered to ${w.endpoints} endpoints (backlog drain)`,
    `${n0(w.drain.events / w.drain.seconds)} events/s (${n0(w.drain.perSecond)} deliveries/s)`,
    'none set',
    null,
  );
  add(
    14,
    `webhook event → receipt at ${w.endpoints} endpoints, p99 (8 clients of lifecycle load)`,
    `${ms(w.loaded.latencies.p99)} (p50 ${ms(w.loaded.latencies.p50)})`,
    'none set',
    null,
  );
}

/** @param {any} w the metric's result */
export function webhooksSection(w) {
  const l = w.loaded;
  const d = w.drain;
  return [
    "### 14. Webhook endpoints' fan-out",
    '',
    `A merchant of its own on the main server registers ${w.endpoints} webhook endpoints with \`POST /webhook-endpoints\`, each enabling every event type (\`*\`), each a receiver in a process of its own on loopback that answers 200 at once (bench/callback-receiver.mjs, as metric 4's). ` +
      `Under load: ${l.clients} clients run the lifecycle for ${n0(w.loadedMs / 1000)} s (${n0(l.lifecycles)} lifecycles finished inside it; ${n0(l.events)} events in all: each payment and capture sends \`transaction.updated\` and its status's own event), every event to all ${w.endpoints} endpoints, signed with each endpoint's own secret; ` +
      "latency is receipt − the transaction's `updatedAt` (one machine, one clock). " +
      "Backlog: every delivery made so far is started again in one transaction with the dispatchers' wake-up notification, as after the endpoints' outage, and the drain is timed from that commit to the last receipt at any of them; " +
      `${d.rounds.length > 1 ? `${d.rounds.length} times, each once the last has ended` : 'once'}. No goal is set: it is measured. ` +
      `Load average ${n1(w.loadAverage)} on two cores at the start: the dispatcher, the server's other work, PostgreSQL and the receivers wait for a core far more than for each other.`,
    '',
    table(
      ['phase', 'deliveries', 'events', 'per second', 'p50', 'p99', 'max'],
      [
        [
          `under lifecycle load (${l.clients} clients)`,
          n0(l.deliveries),
          n0(l.events),
          `${n1(l.perSecondDuringLoad)} deliveries (as fast as events come)`,
          ms(l.latencies.p50),
          ms(l.latencies.p99),
          ms(l.latencies.max),
        ],
        ...d.rounds.map((round, i) => [
          `backlog drain${d.rounds.length > 1 ? `, round ${i + 1}` : ''}`,
          `${n0(round.deliveries)} (${round.perReceiver.map(n0).join(' + ')})`,
          n0(round.events),
          `${bold(`${n0(round.perSecond)} deliveries, ${n0(round.events / round.seconds)} events`, d.rounds.length === 1)} (${n1(round.seconds)} s)`,
          '',
          '',
          '',
        ]),
        ...(d.rounds.length > 1
          ? [['backlog drain, all rounds', n0(d.deliveries), n0(d.events), `**${n0(d.perSecond)} deliveries, ${n0(d.events / d.seconds)} events**`, '', '', '']]
          : []),
      ],
    ),
  ].join('\n');
}
