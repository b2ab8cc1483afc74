/** How many browser sockets (a payment page's `?link=`, a widget's `?session=`) may be open at once on an instance. */
export interface BrowserSocketLimits {
  /** Per payment link, and per SDK session (the two kinds of subject). */
  perSubject: number;
  /** Per client address, across links and sessions. */
  perAddress: number;
  /** On the instance, apart from the merchants' and devices' sockets, which browser sockets never take places from. */
  total: number;
}

/** A payment page or widget needs one or two sockets; a few more cover reloads and tabs. */
export const BROWSER_SOCKET_LIMITS: BrowserSocketLimits = { perSubject: 5, perAddress: 50, total: 10_000 };

/**
 * The browser sockets an instance holds, by subject (`link:…`, `session:…`) and by client address. They are counted
 * per instance, as the sockets themselves are: each instance caps what it holds, and a client spread over several
 * instances behind a load balancer meets each one's cap.
 */
export class BrowserSocketCounts {
  readonly #bySubject = new Map<string, number>();
  readonly #byAddress = new Map<string, number>();
  #total = 0;

  constructor(readonly limits: BrowserSocketLimits = BROWSER_SOCKET_LIMITS) {}

  /** Takes a place for a socket of `subject` from `address`; null when a cap is reached. The release gives it back (once). */
  take(subject: string, address: string): (() => void) | null {
    if (this.#total >= this.limits.total) return null;
    if ((this.#bySubject.get(subject) ?? 0) >= this.limits.perSubject) return null;
    if ((this.#byAddress.get(address) ?? 0) >= this.limits.perAddress) return null;
    this.#total += 1;
    increment(this.#bySubject, subject, 1);
    increment(this.#byAddress, address, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total -= 1;
      increment(this.#bySubject, subject, -1);
      increment(this.#byAddress, address, -1);
    };
  }

  get total(): number {
    return this.#total;
  }
}

/** Adds `by` to a count, forgetting it at zero so the maps hold only what is open. */
function increment(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}
