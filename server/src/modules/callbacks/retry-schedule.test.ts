import { describe, expect, it } from 'vitest';
import { afterAttempt } from './retry-schedule';

const policy = { scheduleS: [15, 60, 120, 600, 2000, 32000], giveUpAfterS: 3 * 24 * 3600 };
const start = new Date('2026-01-01T00:00:00Z');
const failing = { ok: false, httpStatus: 500, communicationError: false };
const unreachable = { ok: false, httpStatus: null, communicationError: true };

describe('afterAttempt', () => {
  it('walks the schedule after HTTP failures, then gives up', () => {
    let now = start;
    let position = 0;
    const waits: number[] = [];
    for (;;) {
      const next = afterAttempt(failing, position, start, now, policy);
      if (next.state !== 'pending') {
        expect(next.state).toBe('failed');
        break;
      }
      waits.push((next.nextAttemptAt.getTime() - now.getTime()) / 1000);
      now = next.nextAttemptAt;
      position = next.schedulePosition;
    }
    expect(waits).toEqual([15, 60, 120, 600, 2000, 32000]); // 6 further attempts, 7 in all
  });

  it('retries communication errors every 32000 s until 3 days after the first attempt', () => {
    let now = start;
    let position = 0;
    let attempts = 1;
    for (;;) {
      const next = afterAttempt(unreachable, position, start, now, policy);
      if (next.state !== 'pending') break;
      attempts += 1;
      now = next.nextAttemptAt;
      position = next.schedulePosition;
    }
    expect(now.getTime() - start.getTime()).toBeLessThanOrEqual(3 * 24 * 3600 * 1000);
    expect(now.getTime() - start.getTime() + 32000 * 1000).toBeGreaterThan(3 * 24 * 3600 * 1000);
    expect(attempts).toBeGreaterThan(7);
  });

  it('succeeds on any 2xx and stops at once on 410', () => {
    expect(afterAttempt({ ok: true, httpStatus: 204, communicationError: false }, 3, start, start, policy).state).toBe('succeeded');
    expect(afterAttempt({ ok: false, httpStatus: 410, communicationError: false }, 0, start, start, policy).state).toBe('failed');
    expect(afterAttempt({ ok: false, httpStatus: 302, communicationError: false }, 0, start, start, policy).state).toBe('pending');
  });
});
