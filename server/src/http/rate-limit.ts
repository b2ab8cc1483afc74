/**
 * Token buckets keyed by credential (or by client address for failed authentication): `ratePerS` tokens a
 * second up to `burst`. In memory, per instance. Buckets that have refilled completely carry no information
 * and are swept, so the map stays bounded by the number of recently active keys.
 */
export class RateLimiter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  #calls = 0;

  constructor(
    readonly ratePerS: number,
    readonly burst: number,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** Takes one token. `retryAfterS` is the whole seconds until a token is available again. */
  take(key: string): { allowed: true } | { allowed: false; retryAfterS: number } {
    const now = this.nowMs();
    if (++this.#calls % 10_000 === 0) this.#sweep(now);
    const bucket = this.#buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.ratePerS);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterS: Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerS)) };
  }

  /** Whether a key still has a token, without taking one. */
  peek(key: string): boolean {
    const bucket = this.#buckets.get(key);
    if (!bucket) return true;
    return bucket.tokens + ((this.nowMs() - bucket.at) / 1000) * this.ratePerS >= 1;
  }

  get size(): number {
    return this.#buckets.size;
  }

  #sweep(now: number): void {
    const fullAfterMs = (this.burst / this.ratePerS) * 1000;
    for (const [key, bucket] of this.#buckets) {
      if (now - bucket.at >= fullAfterMs) this.#buckets.delete(key);
    }
  }
}
