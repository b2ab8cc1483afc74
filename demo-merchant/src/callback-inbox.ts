import type { Transaction } from '@svc/protocol';

export interface ReceivedCallback {
  at: string;
  verified: boolean;
  /** The webhook-id header: the same on every attempt of one update. */
  eventId: string | null;
  transactionNumber: string | null;
  status: number | null;
  statusName: string | null;
  /** What this shop answered: 204, 401 for a bad signature, 503 while the back office refuses callbacks. */
  answeredStatus: number;
}

const KEPT = 200;

/** The callbacks this shop received, newest first, and whether it answers them (the back office can make it refuse). */
export class CallbackInbox {
  readonly #received: ReceivedCallback[] = [];
  readonly #listeners = new Set<(callback: ReceivedCallback) => void>();
  refusing = false;

  record(entry: { verified: boolean; eventId: string | null; body: Partial<Transaction>; queryTransactionNumber: string | null }): ReceivedCallback {
    const callback: ReceivedCallback = {
      at: new Date().toISOString(),
      verified: entry.verified,
      eventId: entry.eventId,
      transactionNumber: entry.body.TransactionNumber ?? entry.queryTransactionNumber,
      status: entry.body.status ?? null,
      statusName: entry.body.statusName ?? null,
      answeredStatus: !entry.verified ? 401 : this.refusing ? 503 : 204,
    };
    this.#received.unshift(callback);
    this.#received.length = Math.min(this.#received.length, KEPT);
    for (const listener of this.#listeners) listener(callback);
    return callback;
  }

  list(transactionNumber?: string): ReceivedCallback[] {
    return transactionNumber ? this.#received.filter((c) => c.transactionNumber === transactionNumber) : [...this.#received];
  }

  onReceive(listener: (callback: ReceivedCallback) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
