import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import type { Logger } from '../logger';

/** LISTEN as the service uses it: `onListen` runs when the channel is listened to, and again after every reconnect. */
export interface Listener {
  listen(channel: string, onNotify: (payload: string) => void, onListen?: () => void): Promise<{ unlisten(): Promise<unknown> }>;
}

interface Registration {
  onNotify(payload: string): void;
  onListen?: () => void;
}

export interface ResilientListenerOptions {
  /** How often the listener checks that it still hears its own notifications. */
  checkIntervalMs?: number;
  /** How long a check waits to hear its ping. */
  pingTimeoutMs?: number;
}

/** Each instance pings itself here; the payload names the ping, so instances ignore each other's. */
const PING_CHANNEL = 'svc_listener_ping';

/**
 * LISTEN that survives the database going away. postgres.js re-listens once when its listening connection closes and
 * drops the channels for good if that one attempt fails (the database is still restarting, say), without a word.
 * This listener checks every few seconds that it still hears a notification it sends itself; when it does not, it
 * starts over on a new connection and listens to every channel again, and each registration's `onListen` runs, so
 * what follows a reconnect (catching up from the store, forgetting cached credentials) runs after this one too.
 */
export class ResilientListener implements Listener {
  readonly #channels = new Map<string, Set<Registration>>();
  readonly #checkIntervalMs: number;
  readonly #pingTimeoutMs: number;
  #sql: postgres.Sql;
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | null = null;
  #pending: { nonce: string; heard(): void } | null = null;
  #stopped = false;
  /** When the listener last heard its own ping (or started listening), and since when it has not (null: it hears). */
  #heardAt = performance.now();
  #silentSince: number | null = null;

  constructor(
    private readonly connect: () => postgres.Sql,
    private readonly logger: Logger,
    options: ResilientListenerOptions = {},
  ) {
    this.#checkIntervalMs = options.checkIntervalMs ?? 10_000;
    this.#pingTimeoutMs = options.pingTimeoutMs ?? 5_000;
    this.#sql = connect();
  }

  async listen(channel: string, onNotify: (payload: string) => void, onListen?: () => void): Promise<{ unlisten(): Promise<void> }> {
    const registration: Registration = onListen ? { onNotify, onListen } : { onNotify };
    const existing = this.#channels.get(channel);
    if (existing) {
      existing.add(registration);
      registration.onListen?.();
    } else {
      this.#channels.set(channel, new Set([registration]));
      await this.#listenOn(this.#sql, channel);
    }
    return {
      unlisten: async () => {
        this.#channels.get(channel)?.delete(registration);
      },
    };
  }

  /** Starts the checks (and listens to its ping channel). */
  async start(): Promise<void> {
    await this.listen(PING_CHANNEL, (nonce) => {
      if (this.#pending?.nonce === nonce) this.#pending.heard();
    });
    this.#timer = setInterval(() => {
      this.#checking ??= this.check().finally(() => (this.#checking = null));
    }, this.#checkIntervalMs);
    this.#timer.unref();
  }

  /** One check: ping, and start over on a new connection when the ping is not heard. Resolves when done. */
  async check(): Promise<void> {
    if (this.#stopped) return;
    const nonce = randomUUID();
    const heard = new Promise<boolean>((resolve) => {
      const timeout = setTimeout(() => resolve(false), this.#pingTimeoutMs);
      this.#pending = {
        nonce,
        heard: () => {
          clearTimeout(timeout);
          resolve(true);
        },
      };
    });
    // Not awaited: with the database away the query waits for its connect timeout; the ping's own timeout decides.
    void this.#sql`select pg_notify(${PING_CHANNEL}, ${nonce})`.catch(() => undefined);
    const ok = await heard;
    this.#pending = null;
    if (ok) {
      this.#heardAt = performance.now();
      this.#silentSince = null;
    } else this.#silentSince ??= performance.now();
    if (ok || this.#stopped) return;
    this.logger.warn({ channels: this.#channels.size }, 'database notifications: not hearing the listener; listening again on a new connection');
    const old = this.#sql;
    this.#sql = this.connect();
    void old.end({ timeout: 0 }).catch(() => undefined);
    try {
      for (const channel of this.#channels.keys()) await this.#listenOn(this.#sql, channel);
      this.logger.info({ channels: this.#channels.size }, 'database notifications: listening again');
    } catch (error) {
      this.logger.warn({ err: error }, 'database notifications: listening again failed; the next check retries');
    }
  }

  /** For readiness: whether the last check heard its own notification. */
  status(): { ok: boolean; detail: string } {
    const ago = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s ago`;
    if (this.#silentSince !== null) return { ok: false, detail: `not hearing its own notifications since ${ago(this.#silentSince)}; listening again` };
    return { ok: true, detail: `heard its own notification ${ago(this.#heardAt)}` };
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#checking;
    await this.#sql.end({ timeout: 1 });
  }

  #listenOn(sql: postgres.Sql, channel: string) {
    return sql.listen(
      channel,
      (payload) => {
        for (const registration of this.#channels.get(channel) ?? []) registration.onNotify(payload);
      },
      () => {
        for (const registration of this.#channels.get(channel) ?? []) registration.onListen?.();
      },
    );
  }
}
