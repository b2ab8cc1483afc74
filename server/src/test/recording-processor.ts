import { SandboxProcessor } from '../processor/sandbox-processor';

/** The sandbox processor, recording the calls it is asked for; captures may take a moment, to widen races. */
export class RecordingProcessor extends SandboxProcessor {
  /** While true, every call fails as an acquirer that cannot be reached does (nothing happens there). */
  unreachable = false;
  /** How many of the next reversals are not answered (nothing happens at the acquirer, nothing is recorded in `reversed`). */
  failingReversals = 0;
  /** The payment's reference each reversal was given (answered or not), in order. */
  reversalReferences: (string | undefined)[] = [];
  /** The request key of every reversal asked for, in order. */
  reversed: string[] = [];
  tokenCharges = 0;
  captures = 0;
  reauthorizations = 0;
  sales = 0;
  authorizations = 0;
  /** The request key of every capture call, in order (a retry repeats its key). */
  captureKeys: string[] = [];
  released: { reference: string; amountCents: number; requestKey: string }[] = [];
  /** Every refund call asked for, reached or not (`unreachable`), in order (a retry repeats its key). */
  refunds: { reference: string; amountCents: number; requestKey: string }[] = [];
  #waiting: { reached: () => boolean; resolve: () => void }[] = [];
  #reversalsHeld: Promise<void> | null = null;
  #failing: Promise<void> | null = null;

  constructor(private readonly captureDelayMs = 0) {
    super();
  }

  /** Resolves when the processor has been asked for `count` captures in all (at once if it already has). */
  capturesCalled(count: number): Promise<void> {
    return this.#until(() => this.captures >= count);
  }

  /** Resolves when the processor has been asked for `count` re-authorizations in all. */
  reauthorizationsCalled(count: number): Promise<void> {
    return this.#until(() => this.reauthorizations >= count);
  }

  /** Resolves when the processor has been asked for `count` sales in all. */
  salesCalled(count: number): Promise<void> {
    return this.#until(() => this.sales >= count);
  }

  /** Resolves when the processor has been asked for `count` authorizations in all. */
  authorizationsCalled(count: number): Promise<void> {
    return this.#until(() => this.authorizations >= count);
  }

  override async authorize(...args: Parameters<SandboxProcessor['authorize']>) {
    this.#reach();
    this.authorizations += 1;
    this.#called();
    return super.authorize(...args);
  }

  override async sale(...args: Parameters<SandboxProcessor['sale']>) {
    this.#reach();
    this.sales += 1;
    this.#called();
    return super.sale(...args);
  }

  override async chargeToken(...args: Parameters<SandboxProcessor['chargeToken']>) {
    this.#reach();
    this.tokenCharges += 1;
    this.#called();
    await this.#failing;
    return super.chargeToken(...args);
  }

  /** For tests: token charges asked from now on wait, then fail as unanswered when `fail()` is called. */
  holdThenFail(): { fail(): void } {
    let fail!: () => void;
    const failing = new Promise<void>((_, reject) => (fail = () => reject(new Error('no answer (test: the held call failed)'))));
    failing.catch(() => undefined); // each held call rejects on its own await
    this.#failing = failing;
    return {
      fail: () => {
        this.#failing = null;
        fail();
      },
    };
  }

  override async capture(...args: Parameters<SandboxProcessor['capture']>) {
    this.#reach();
    this.captures += 1;
    this.captureKeys.push(args[3]);
    this.#called();
    if (this.captureDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.captureDelayMs));
    return super.capture(...args);
  }

  override async reauthorize(...args: Parameters<SandboxProcessor['reauthorize']>) {
    this.#reach();
    this.reauthorizations += 1;
    this.#called();
    return super.reauthorize(...args);
  }

  override async reverse(requestKey: string, reference?: string) {
    this.#reach();
    this.reversalReferences.push(reference);
    if (this.failingReversals > 0) {
      this.failingReversals -= 1;
      throw new Error('no answer (test: the reversal was not answered)');
    }
    this.reversed.push(requestKey);
    this.#called();
    await this.#reversalsHeld;
    return super.reverse(requestKey);
  }

  /** Resolves when the processor has been asked for `count` token charges in all. */
  tokenChargesCalled(count: number): Promise<void> {
    return this.#until(() => this.tokenCharges >= count);
  }

  /** Resolves when the processor has been asked for `count` reversals in all. */
  reversalsCalled(count: number): Promise<void> {
    return this.#until(() => this.reversed.length >= count);
  }

  /** For tests: reversals asked from now on wait (and take effect) only when `release()` is called. */
  holdReversals(): { release(): void } {
    let release!: () => void;
    this.#reversalsHeld = new Promise<void>((resolve) => (release = resolve));
    return {
      release: () => {
        this.#reversalsHeld = null;
        release();
      },
    };
  }

  /** Resolves when the processor has been asked for `count` refunds in all. */
  refundsCalled(count: number): Promise<void> {
    return this.#until(() => this.refunds.length >= count);
  }

  override async refund(reference: string, amountCents: number, requestKey: string) {
    this.refunds.push({ reference, amountCents, requestKey });
    this.#reach();
    this.#called();
    return super.refund(reference, amountCents, requestKey);
  }

  override async release(reference: string, amountCents: number, requestKey: string) {
    this.#reach();
    this.released.push({ reference, amountCents, requestKey });
    return super.release(reference, amountCents, requestKey);
  }

  #reach(): void {
    if (this.unreachable) throw new Error('connect ECONNREFUSED (test: the acquirer is unreachable)');
  }

  #until(reached: () => boolean): Promise<void> {
    if (reached()) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push({ reached, resolve }));
  }

  #called(): void {
    for (const waiting of this.#waiting) if (waiting.reached()) waiting.resolve();
    this.#waiting = this.#waiting.filter((waiting) => !waiting.reached());
  }
}
