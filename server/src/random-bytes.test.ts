import { describe, expect, it } from 'vitest';
import { randomBytes } from './random-bytes';

describe('randomBytes', () => {
  it('gives the size asked, never the same bytes twice, across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const bytes = randomBytes(i % 40 === 0 ? 33 : 16);
      expect(bytes.length).toBe(i % 40 === 0 ? 33 : 16);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(2000);
  });

  it('hands out copies: the pool is wiped as it is drawn, what was handed out keeps its bytes through refills', () => {
    const drawn = randomBytes(16);
    const kept = Buffer.from(drawn);
    expect(drawn.equals(Buffer.alloc(16))).toBe(false);
    for (let i = 0; i < 600; i++) randomBytes(16);
    expect(drawn.equals(kept)).toBe(true);
  });

  it('takes sizes larger than its pool straight from the CSPRNG', () => {
    expect(randomBytes(10_000).length).toBe(10_000);
  });

  it('is not biased to zero bytes by the wipe (each byte value appears)', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 21; i++) for (const byte of randomBytes(4000)) counts[byte]!++;
    expect(counts.every((n) => n > 0)).toBe(true);
    expect(counts[0]).toBeLessThan(600); // about 330 each
  });
});
