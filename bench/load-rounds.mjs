// Closed-loop rounds of one iteration, round after round, as metrics 1, 2, 8 and 9 run them: each measured round's
// result, the latencies of the measured rounds (only of requests that finish inside the round's window) and, when a
// sampler is given, the CPU those rounds cost the server and its PostgreSQL backends.
import { runClosedLoop } from './load-client.mjs';

/** @typedef {{ sample(): Promise<unknown>, between(before: any, after: any): { serverMs: number, databaseMs: number } }} CpuSampler */

/**
 * @param {{ clients: number, latencies: { open: boolean, close(): void, reopen(): void }, cpu?: CpuSampler | null, iteration: (client: number) => Promise<unknown> }} options
 */
export function loadRounds({ clients, latencies, cpu = null, iteration }) {
  latencies.close();
  const rounds = /** @type {Awaited<ReturnType<typeof runClosedLoop>>[]} */ ([]);
  const cpuUsed = { serverMs: 0, databaseMs: 0 };
  return {
    rounds,
    /** A round of `durationMs`; `measure: false` for a warm-up (nothing kept). */
    async round(durationMs, { measure = true } = {}) {
      if (measure) latencies.reopen();
      const cpuBefore = measure && cpu ? await cpu.sample() : null;
      /** @type {Promise<unknown> | null} */
      let cpuAtEnd = null;
      const result = await runClosedLoop({
        clients,
        durationMs,
        iteration,
        onWindowEnd: () => {
          latencies.close();
          if (cpu && cpuBefore && !cpuAtEnd) cpuAtEnd = cpu.sample();
        },
      });
      if (cpu && cpuBefore) {
        const used = cpu.between(cpuBefore, await cpuAtEnd);
        cpuUsed.serverMs += used.serverMs;
        cpuUsed.databaseMs += used.databaseMs;
      }
      if (measure) rounds.push(result);
      return result;
    },
    /** The measured rounds together; CPU per completed iteration, or null without a sampler. */
    totals() {
      const completed = rounds.reduce((n, r) => n + r.completed, 0);
      const failed = rounds.reduce((n, r) => n + r.failed, 0);
      const seconds = rounds.reduce((n, r) => n + r.elapsedS, 0);
      /** @type {Map<string, number>} */
      const failures = new Map();
      for (const r of rounds) for (const [k, v] of r.failures) failures.set(k, (failures.get(k) ?? 0) + v);
      const cpuPerIteration = cpu && completed > 0 ? { serverMs: cpuUsed.serverMs / completed, databaseMs: cpuUsed.databaseMs / completed } : null;
      return { completed, failed, seconds, perSecond: completed / seconds, perRound: rounds.map((r) => r.perSecond), failures, cpuPerIteration };
    },
  };
}
