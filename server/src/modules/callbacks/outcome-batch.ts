/**
 * Group commit for attempt outcomes: outcomes that arrive while a write is under way (or in the same turn of the
 * event loop as the first) go to the database together in the next write, one statement for all of them. When
 * attempts end one at a time, each is written at once, alone; under a backlog, one write carries many. A caller's
 * promise settles with the write that carried its outcome: resolved once it committed, rejected with its error.
 */
export class OutcomeBatch<T> {
  readonly #write: (batch: readonly T[]) => Promise<void>;
  #waiting: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  #writing = false;

  constructor(write: (batch: readonly T[]) => Promise<void>) {
    this.#write = write;
  }

  record(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      if (this.#writing) return;
      this.#writing = true;
      setImmediate(() => void this.#drain());
    });
  }

  async #drain(): Promise<void> {
    while (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      try {
        await this.#write(batch.map((waiting) => waiting.item));
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.#writing = false;
  }
}
