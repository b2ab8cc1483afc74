// Metric 11 in BENCHMARKS.md: its goal row and its section (report.mjs calls both).
import { table } from '../markdown-table.mjs';

const s1 = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'n/a');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/**
 * The goal row of metric 11 (none set: the figure is what docs/scaling.md quotes).
 * @param {any} f the metric's result
 * @param {(metric: number, what: string, value: string, goal: string, ok: boolean | null) => void} add
 */
export function failoverGoals(f, add) {
  const what = 'writes unavailable when the primary dies and its synchronous standby is promoted at once';
  if (!f.measured) {
    add(11, what, `not measured: ${f.reason}`, 'none set', null);
    return;
  }
  const outages = f.rounds.map((r) => r.outageMs);
  const unexpected = f.rounds.reduce((sum, r) => sum + r.unexpected, 0);
  add(
    11,
    what,
    `median ${s1(median(outages))}, max ${s1(Math.max(...outages))} over ${f.rounds.length} round${f.rounds.length > 1 ? 's' : ''}; ` +
      `${unexpected === 0 ? 'every answer 2xx or 503 with Retry-After' : `**${unexpected} answers neither 2xx nor 503 with Retry-After**`}`,
    'none set',
    null,
  );
}

/** @param {any} f the metric's result */
export function failoverSection(f) {
  const title = '### 11. Failover';
  if (!f.measured) return `${title}\n\nNot measured: ${f.reason}.`;
  return [
    title,
    '',
    `A primary and a synchronous standby (PostgreSQL's own programs, from ${f.programs}), a server with both in \`DATABASE_URL\` ` +
      `(\`target_session_attrs=read-write\`) and ${f.clients} clients running the lifecycle, init and status retried while 503. Once they have captured a few payments, ` +
      'the primary is stopped immediately (`pg_ctl stop -m immediate`) and the standby promoted at once (`pg_ctl promote`). Writes are unavailable from the kill to the first ' +
      'init answered 200 that was sent after it: the promotion, then the service finding the new primary (its probe every 250 ms, each connection trying the hosts in turn). ' +
      'A real promotion also waits for whatever decides on it (an operator, Patroni: its detection time comes first).',
    '',
    table(
      ['round', 'writes unavailable', 'promotion', 'then the service writes again after', 'answers 503 with Retry-After', 'other answers'],
      f.rounds.map((r, i) => [i + 1, `**${s1(r.outageMs)}**`, s1(r.promotionMs), s1(r.resumeMs), r.unavailable, r.unexpected]),
    ),
  ].join('\n');
}
