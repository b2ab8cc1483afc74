import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  it('allows the burst, then refuses with the seconds until the next token', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 3, () => now);
    expect([1, 2, 3].map(() => limiter.take('k').allowed)).toEqual([true, true, true]);
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterS: 1 });
    now += 500; // one token at 2/s
    expect(limiter.take('k').allowed).toBe(true);
    expect(limiter.take('k').allowed).toBe(false);
  });

  it('keeps keys apart and never refills above the burst', () => {
    let now = 0;
    const limiter = new RateLimiter(1, 2, () => now);
    limiter.take('a');
    limiter.take('a');
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
    now += 60_000;
    expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, false]);
  });

  it('reports a longer wait at a slow rate', () => {
    const limiter = new RateLimiter(0.1 as number, 1, () => 0);
    limiter.take('k');
    const verdict = limiter.take('k');
    expect(verdict).toEqual({ allowed: false, retryAfterS: 10 });
  });

  it('forgets idle keys so memory stays bounded', () => {
    let now = 0;
    const limiter = new RateLimiter(100, 200, () => now);
    for (let i = 0; i < 9_999; i++) limiter.take(`key-${i}`);
    expect(limiter.size).toBe(9_999);
    now += 10_000;
    limiter.take('trigger-sweep');
    expect(limiter.size).toBeLessThan(10);
  });
});
