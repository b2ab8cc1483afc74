// CPU time spent by a server process and by the PostgreSQL backends serving it, read from /proc (Linux; the
// database runs on this machine, on loopback). Per sequence, CPU time is much steadier than throughput on a shared
// machine: it says what a request costs, whoever else is running.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const HARNESS_APPLICATION = 'svc-bench-harness';
export const REFERENCE_APPLICATION = 'svc-bench-reference';
/** The reference writing the service's own rows (reference-rows.mjs). */
export const REFERENCE_ROWS_APPLICATION = 'svc-bench-reference-rows';

let ticksPerSecond;
function clockTicks() {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU of `pid` so far in ms, or null when it cannot be read. */
export function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at ") ": utime and stime are 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / clockTicks()) * 1000;
  } catch {
    return null;
  }
}

/**
 * Samples the CPU of `pid` and of the client backends of the database `sql` is connected to whose
 * application_name is `application`, or starts with `applicationPrefix` (a service names its pool `svc-<pid>-…`), or,
 * without either, every one but the harness's and the references'.
 */
/** @param {{ pid: number, sql: import('postgres').Sql, application?: string, applicationPrefix?: string }} options */
export function cpuSampler({ pid, sql, application, applicationPrefix }) {
  const backends = async () => {
    const rows = application
      ? await sql`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and application_name = ${application}`
      : applicationPrefix
        ? await sql`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and starts_with(application_name, ${applicationPrefix})`
        : await sql`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'
                  and application_name not in (${HARNESS_APPLICATION}, ${REFERENCE_APPLICATION}, ${REFERENCE_ROWS_APPLICATION})`;
    return rows.map((r) => r.pid);
  };
  return {
    async sample() {
      const pids = await backends();
      /** @type {Map<number, number>} */
      const database = new Map();
      for (const p of pids) {
        const ms = processCpuMs(p);
        if (ms !== null) database.set(p, ms);
      }
      return { serverMs: processCpuMs(pid), database };
    },
    /** CPU used between two samples; a backend that appeared in between counts from zero. */
    between(before, after) {
      let databaseMs = 0;
      for (const [p, ms] of after.database) databaseMs += ms - (before.database.get(p) ?? 0);
      return { serverMs: after.serverMs - before.serverMs, databaseMs };
    },
  };
}
