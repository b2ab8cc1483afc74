import { SandboxProcessor } from '../processor/sandbox-processor';

/** The sandbox processor, recording the captures and releases it is asked for; captures may take a moment, to widen races. */
export class RecordingProcessor extends SandboxProcessor {
  captures = 0;
  /** The request key of every capture call, in order (a retry repeats its key). */
  captureKeys: string[] = [];
  released: { reference: string; amountCents: number; requestKey: string }[] = [];

  #waiting: { count: number; resolve: () => void }[] = [];

  constructor(private readonly captureDelayMs = 0) {
    super();
  }

  /** Resolves when the processor has been asked for `count` captures in all (at once if it already has). */
  capturesCalled(count: number): Promise<void> {
    if (this.captures >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push({ count, resolve }));
  }

  override async capture(...args: Parameters<SandboxProcessor['capture']>) {
    this.captures += 1;
    this.captureKeys.push(args[3]);
    for (const waiting of this.#waiting) if (this.captures >= waiting.count) waiting.resolve();
    this.#waiting = this.#waiting.filter((waiting) => this.captures < waiting.count);
    if (this.captureDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.captureDelayMs));
    return super.capture(...args);
  }

  override async release(reference: string, amountCents: number, requestKey: string) {
    this.released.push({ reference, amountCents, requestKey });
    return super.release(reference, amountCents, requestKey);
  }
}
