import type postgres from 'postgres';
import type { Logger } from '../logger';
import { isDatabaseUnavailable, OutageLog } from './database-outage';

export const PROBE_INTERVAL_MS = 250;

/**
 * Whether the database is reachable, as this instance last found it. A request or worker that meets an outage error
 * (`isDatabaseUnavailable`) reports it; a probe on a connection of its own then checks at once. While the probe
 * fails, the database is down: requests answer 503 at once instead of queueing for a connection that cannot come,
 * and the probe tries again every PROBE_INTERVAL_MS, so service resumes within that of the database's return. A
 * single dropped connection (its backend terminated) is no outage: the probe succeeds and nothing is marked down.
 */
export class DatabaseHealth {
  #down = false;
  #probing: Promise<void> | null = null;
  #stopped = false;
  #timer: NodeJS.Timeout | null = null;
  readonly #outage: OutageLog;

  constructor(
    private readonly probe: () => Promise<unknown>,
    logger: Pick<Logger, 'warn' | 'info'>,
  ) {
    this.#outage = new OutageLog(logger, 'service');
  }

  /** The database is down, as the last probe found. */
  get down(): boolean {
    return this.#down;
  }

  /** An error met while using the database: when it is an outage error, check the database now. */
  report(error: unknown): void {
    if (!isDatabaseUnavailable(error) || this.#stopped) return;
    if (this.#probing) return;
    this.#probing = this.#probeUntilUp().finally(() => (this.#probing = null));
  }

  async #probeUntilUp(): Promise<void> {
    while (!this.#stopped) {
      try {
        await this.probe();
        this.#down = false;
        this.#outage.recovered();
        return;
      } catch (error) {
        if (!this.#down) this.#outage.failed(error);
        this.#down = true;
      }
      await new Promise<void>((resolve) => (this.#timer = setTimeout(resolve, PROBE_INTERVAL_MS)));
    }
  }

  /** Stops probing (shutdown). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
  }
}

/** A health that probes with `select 1` on a connection pool of its own. */
export function probeWith(sql: postgres.Sql): () => Promise<unknown> {
  return () => sql`select 1`;
}
