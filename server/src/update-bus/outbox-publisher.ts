import type { CommittedEvents } from '../db/after-commit';
import type { Database } from '../db/client';
import { isDatabaseUnavailable, OutageLog } from '../db/database-outage';
import { parseEventNotice, type EventNotice } from '../event-notice';
import type { Logger } from '../logger';
import { forgetPublished, overduePublications } from './publications.queries';
import type { UpdateBus } from './update-bus';

/** Notices one publication carries at most. */
const BATCH = 500;

/**
 * Publishes what this instance's changes committed: handed the notices after each commit (db/after-commit.ts), it
 * publishes them on the bus in commit order (those committed while a publication is on its way go together in the
 * next), then deletes their outbox rows. A publication the bus refused leaves its rows for the sweep.
 */
export class OutboxPublisher implements CommittedEvents {
  #queue: EventNotice[] = [];
  #publishing: Promise<void> | null = null;
  readonly #forgetting = new Set<Promise<void>>();
  #stopped = false;
  /** Whether the last publication failed: a bus outage is logged once, and once when it ends. */
  #failing = false;

  constructor(
    private readonly db: Database,
    private readonly bus: UpdateBus,
    private readonly logger: Logger,
  ) {}

  committed(notices: EventNotice[]): void {
    if (this.#stopped) return;
    this.#queue.push(...notices);
    this.#schedule();
  }

  /** Resolves once what was handed over has been published (or left to the sweep). */
  async stop(): Promise<void> {
    while (this.#publishing) await this.#publishing;
    this.#stopped = true;
    await Promise.all(this.#forgetting);
  }

  #schedule(): void {
    if (this.#publishing) return;
    this.#publishing = this.#publish().finally(() => {
      this.#publishing = null;
      if (this.#queue.length > 0) this.#schedule();
    });
  }

  /**
   * Their rows stay in the outbox for the sweep. A database outage is the database health's to log (the publications
   * of the changes committed just before it fail with it); a bus outage is logged once, until a publication succeeds.
   */
  #failed(error: unknown, events: number): void {
    if (isDatabaseUnavailable(error)) {
      this.logger.debug({ err: error, events }, 'update bus: publishing failed with the database; the publication sweep retries');
      return;
    }
    if (this.#failing) return;
    this.#failing = true;
    this.logger.warn(
      { err: error, events, bus: this.bus.kind },
      'update bus: publishing failed; the publication sweep publishes what is left once the bus answers',
    );
  }

  async #publish(): Promise<void> {
    const batch = this.#queue.splice(0, BATCH);
    try {
      await this.bus.publish(batch);
    } catch (error) {
      this.#failed(error, batch.length);
      return;
    }
    if (this.#failing) {
      this.#failing = false;
      this.logger.info({ bus: this.bus.kind }, 'update bus: publishing again');
    }
    const forgetting = forgetPublished(
      this.db,
      batch.map((notice) => notice.eventId),
    )
      // Harmless: the sweep publishes them again, and subscribers skip what they already sent.
      .catch((error: unknown) =>
        this.logger[isDatabaseUnavailable(error) ? 'debug' : 'warn'](
          { err: error },
          'update bus: clearing published events failed; the sweep publishes them again',
        ),
      )
      .finally(() => this.#forgetting.delete(forgetting));
    this.#forgetting.add(forgetting);
  }
}

export interface PublicationSweep {
  /** One pass now (tests): how many overdue events it published. */
  sweepOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Publishes the outbox rows no instance published within `graceMs` of their change (an instance died between its
 * commit and its publication, the bus was down, a change committed by the CLI), every `intervalMs`. A late notice
 * is harmless: subscribers skip what they already sent and fill a skipped sequence from the store.
 */
export function startPublicationSweep({
  db,
  bus,
  logger,
  intervalMs = 1_000,
  graceMs = 2_000,
  onTick,
}: {
  db: Database;
  bus: UpdateBus;
  logger: Logger;
  intervalMs?: number;
  graceMs?: number;
  onTick?: () => void;
}): PublicationSweep {
  let running: Promise<number> | null = null;
  const sweepOnce = () =>
    db.transaction(async (tx) => {
      const rows = await overduePublications(tx, graceMs, BATCH);
      if (rows.length === 0) return 0;
      const notices = rows.map((row) => parseEventNotice(row.notice)).filter((notice): notice is EventNotice => notice !== null);
      await bus.publish(notices);
      await forgetPublished(
        tx,
        rows.map((row) => row.eventId),
      );
      logger.info({ events: notices.length, bus: bus.kind }, 'update bus: published events their instance had not');
      return notices.length;
    });
  // An outage (of the database, or of the bus) is logged once, and once when it ends: not a line a second.
  const outage = new OutageLog(logger, 'publication sweep');
  let busDown = false;
  const timer = setInterval(() => {
    running ??= sweepOnce()
      .then((count) => {
        outage.recovered();
        if (busDown) logger.info({ bus: bus.kind }, 'update bus: the publication sweep publishes again');
        busDown = false;
        onTick?.();
        return count;
      })
      .catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) outage.failed(error);
        else if (!busDown) {
          busDown = true;
          logger.warn({ err: error, bus: bus.kind }, 'update bus: the publication sweep cannot publish; retrying every tick');
        }
        return 0;
      })
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return {
    sweepOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
