// Metric 12 in BENCHMARKS.md: its goal rows and its section (report.mjs calls both).
import { n1, table } from '../markdown-table.mjs';

const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : 'n/a');
const pct = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %` : 'n/a');

/**
 * The goal rows of metric 12 (none set: the figures are what docs/scaling.md quotes).
 * @param {any} b the metric's result
 * @param {(metric: number, what: string, value: string, goal: string, ok: boolean | null) => void} add
 */
export function busGoals(b, add) {
  const t = b.throughput;
  add(
    12,
    'lifecycle throughput, NOTIFY after the commit against inside the transaction (8 clients)',
    `${n1(t.after.perSecond)} vs ${n1(t.inside.perSecond)} sequences/s (${pct(t.after.perSecond / t.inside.perSecond - 1)})`,
    'none set',
    null,
  );
  const latency = (l) => (l.measured ? `p50 ${ms(l.latencies.p50)}, p99 ${ms(l.latencies.p99)}` : `not measured: ${l.reason}`);
  add(
    12,
    "update latency to another instance's socket, postgres bus / nats bus",
    `${latency(b.latency.postgres)} / ${latency(b.latency.nats)}`,
    'none set',
    null,
  );
}

/** @param {any} b the metric's result */
export function busSection(b) {
  const t = b.throughput;
  const latencyRow = (name, l) =>
    l.measured
      ? [name, l.updates, ms(l.latencies.p50), ms(l.latencies.p99), ms(l.latencies.max), ms(l.answers.p50)]
      : [name, `not measured: ${l.reason}`, '', '', '', ''];
  return [
    '### 12. Update bus',
    '',
    `Lifecycle throughput at ${t.clients} clients, two servers of the same build on a database each, in alternating rounds: one as the service runs ` +
      '(the event statement writes a realtime outbox row; after the commit the instance sends the NOTIFY and deletes the row), one with a trigger ' +
      "that turns the outbox row into a NOTIFY inside the change's transaction, where the event statement used to send it (that instance still " +
      'sends its redundant NOTIFY after the commit, and its delete finds nothing).',
    '',
    `The machine's load average was ${n1(b.loadAverage)} on its two cores when the metric started (other work shares it): the servers and PostgreSQL wait for a core ` +
      'far more than for each other, so the rounds swing widely and the difference between the two sides is within that noise. What the NOTIFY inside a ' +
      "transaction costs is PostgreSQL's commit-wide lock, which binds when commits queue on a primary with cores to spare, not on a saturated two-core machine.",
    '',
    table(
      ['', 'sequences/s', 'per round', 'failed'],
      [
        ['NOTIFY after the commit', `**${n1(t.after.perSecond)}**`, t.after.rounds.map(n1).join(', '), t.after.failed],
        ['NOTIFY inside the transaction', `**${n1(t.inside.perSecond)}**`, t.inside.rounds.map(n1).join(', '), t.inside.failed],
      ],
    ),
    '',
    "Update latency: an authorization created on one instance, its update heard on a merchant socket (scope `merchant`) of another instance on the same database, one change at a time after five of warm-up; from the request sent to the update received (the request's own answer time beside it).",
    '',
    table(
      ['bus', 'updates', 'p50', 'p99', 'max', 'request answered, p50'],
      [latencyRow('postgres (LISTEN/NOTIFY)', b.latency.postgres), latencyRow('nats (a local nats-server)', b.latency.nats)],
    ),
  ].join('\n');
}
