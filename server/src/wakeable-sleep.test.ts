import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WakeableSleep } from './wakeable-sleep';

/** Starts a sleep and reports whether it has ended (after the pending timers and promise callbacks ran). */
function track(sleeper: WakeableSleep) {
  let ended = false;
  void sleeper.sleep().then(() => (ended = true));
  return {
    ended: async () => {
      await vi.advanceTimersByTimeAsync(0);
      return ended;
    },
  };
}

describe('WakeableSleep', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits its idle time when nobody wakes it', async () => {
    const sleep = track(new WakeableSleep(1000));
    await vi.advanceTimersByTimeAsync(999);
    expect(await sleep.ended()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await sleep.ended()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends early when woken, and leaves no timer behind', async () => {
    const sleeper = new WakeableSleep(60_000);
    const sleep = track(sleeper);
    expect(await sleep.ended()).toBe(false);
    sleeper.wake();
    expect(await sleep.ended()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps a wake-up that came while nobody slept: the next sleep returns at once, the one after waits again', async () => {
    const sleeper = new WakeableSleep(60_000);
    sleeper.wake();
    sleeper.wake(); // several wake-ups while busy are one
    expect(await track(sleeper).ended()).toBe(true);
    const next = track(sleeper);
    expect(await next.ended()).toBe(false);
    sleeper.wake();
    expect(await next.ended()).toBe(true);
  });

  it('a wake-up ends only the sleep in progress; a second one, with nobody asleep, is kept for the next', async () => {
    const sleeper = new WakeableSleep(60_000);
    const first = track(sleeper);
    sleeper.wake();
    sleeper.wake();
    expect(await first.ended()).toBe(true);
    expect(await track(sleeper).ended()).toBe(true);
    expect(await track(sleeper).ended()).toBe(false);
  });

  it('cancel ends the sleep in progress, and every later sleep returns at once', async () => {
    const sleeper = new WakeableSleep(60_000);
    const sleep = track(sleeper);
    sleeper.cancel();
    expect(await sleep.ended()).toBe(true);
    expect(await track(sleeper).ended()).toBe(true);
    expect(await track(sleeper).ended()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
