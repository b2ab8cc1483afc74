import type { Listener } from './resilient-listener';

/**
 * Rows read from the database, kept in memory by key for `ttlMs` so that requests do not each read them, and
 * forgotten at once when a trigger announces their change: the credential cache and the processor account cache.
 *
 * A read that started before a `forget` or `clear` never stores what it read (it may be the old row). A read's
 * `keep: false` stores nothing and drops what was kept under its key. `ttlMs` bounds how long a change may go unseen
 * while the announcements are lost (the listener reconnecting); 0 turns the cache off. At most `maxEntries` are kept,
 * the oldest dropped first.
 */
export class ForgettingCache<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();
  /** Bumped by every `forget` and `clear`: a read that started before one must not store what it read. */
  #generation = 0;

  constructor(
    readonly ttlMs: number,
    readonly maxEntries = 10_000,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** What is kept under `key` while it lives, else what `read` answers (kept when it says so). */
  async get(key: string, read: () => Promise<{ value: V; keep: boolean }>): Promise<V> {
    if (this.ttlMs <= 0) return (await read()).value;
    const now = this.nowMs();
    const kept = this.#entries.get(key);
    if (kept && kept.expiresAt > now) return kept.value;
    const generation = this.#generation;
    const { value, keep } = await read();
    if (!keep) {
      this.#entries.delete(key);
    } else if (generation === this.#generation) {
      this.#entries.delete(key);
      this.#entries.set(key, { value, expiresAt: now + this.ttlMs });
      if (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
    }
    return value;
  }

  /** The row under `key` changed: read it again next time. */
  forget(key: string): void {
    this.#generation += 1;
    this.#entries.delete(key);
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * Makes `cache` forget the key each notice on `channel` names (`keyOf`; null for a payload it does not know: then
 * everything), and everything after the listener's connection was lost (notices sent meanwhile are gone). Resolves
 * once it listens.
 */
export function forgetOnNotice(
  listener: Listener,
  channel: string,
  cache: { forget(key: string): void; clear(): void },
  keyOf: (payload: string) => string | null,
): Promise<{ unlisten(): Promise<unknown> }> {
  let listening = false;
  return listener.listen(
    channel,
    (payload) => {
      const key = keyOf(payload);
      if (key === null) cache.clear();
      else cache.forget(key);
    },
    () => {
      if (listening) cache.clear();
      listening = true;
    },
  );
}
