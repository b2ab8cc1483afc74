import { isDatabaseUnavailable } from '../../db/database-outage';

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for attempt outcomes: outcomes that arrive while a write is under way (or in the same turn of the
 * event loop as the first) go to the database together in the next write, one statement for all of them. When
 * attempts end one at a time, each is written at once, alone; under a backlog, one write carries many. A caller's
 * promise settles with the write that carried its outcome: resolved with its result (the write gives one per item,
 * in order) once it committed, rejected with its error.
 *
 * A write of several that fails for anything but a database outage (one row breaks a constraint, a value is
 * malformed) is made again one item at a time, so the one that cannot be written does not keep the others from
 * being written: only the items still refused alone are rejected. An outage rejects the whole batch at once (its
 * deliveries are attempted again when their leases end, once the database answers).
 */
export class OutcomeBatch<T, R> {
  readonly #write: (batch: readonly T[]) => Promise<readonly R[]>;
  #waiting: Waiting<T, R>[] = [];
  #writing = false;

  constructor(write: (batch: readonly T[]) => Promise<readonly R[]>) {
    this.#write = write;
  }

  record(item: T): Promise<R> {
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
        this.#settle(batch, await this.#write(batch.map((waiting) => waiting.item)));
      } catch (error) {
        if (batch.length > 1 && !isDatabaseUnavailable(error)) await this.#writeOneByOne(batch);
        else for (const waiting of batch) waiting.reject(error);
      }
    }
    this.#writing = false;
  }

  async #writeOneByOne(batch: Waiting<T, R>[]): Promise<void> {
    for (const [i, waiting] of batch.entries()) {
      try {
        this.#settle([waiting], await this.#write([waiting.item]));
      } catch (error) {
        waiting.reject(error);
        if (!isDatabaseUnavailable(error)) continue;
        // The database is gone: the rest wait for it like any batch in an outage, without a write each.
        for (const rest of batch.slice(i + 1)) rest.reject(error);
        return;
      }
    }
  }

  #settle(batch: Waiting<T, R>[], results: readonly R[]): void {
    batch.forEach((waiting, i) => {
      if (i < results.length) waiting.resolve(results[i] as R);
      else waiting.reject(new Error(`OutcomeBatch: the write gave ${results.length} results for ${batch.length} items`));
    });
  }
}
