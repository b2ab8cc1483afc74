/**
 * The idle wait of a polling loop (the callback dispatcher, the message sender): `sleep()` waits up to `idleMs` or
 * until `wake()` (a notification says work was queued). A wake-up that arrives while the loop is busy is not lost:
 * the next sleep returns at once. `cancel()` (on stop) ends the current sleep and every later one returns at once.
 */
export class WakeableSleep {
  readonly #idleMs: number;
  #wakeUp: (() => void) | null = null;
  #wokenWhileBusy = false;
  #cancelled = false;

  constructor(idleMs: number) {
    this.#idleMs = idleMs;
  }

  /** Resolves after `idleMs`, when woken, or at once when a wake-up came while nobody slept or after `cancel()`. */
  sleep(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.#cancelled || this.#wokenWhileBusy) {
        this.#wokenWhileBusy = false;
        resolve();
        return;
      }
      const done = () => {
        clearTimeout(timer);
        this.#wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, this.#idleMs);
      this.#wakeUp = done;
    });
  }

  /** Ends the current sleep early; with none, makes the next one return at once. */
  wake(): void {
    if (this.#wakeUp) this.#wakeUp();
    else this.#wokenWhileBusy = true;
  }

  /** Ends the current sleep, and every later sleep returns at once (the loop is stopping). */
  cancel(): void {
    this.#cancelled = true;
    this.#wakeUp?.();
  }
}
