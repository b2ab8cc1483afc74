import { SandboxProcessor } from '../processor/sandbox-processor';

/** The sandbox processor, recording the captures and releases it is asked for; captures may take a moment, to widen races. */
export class RecordingProcessor extends SandboxProcessor {
  captures = 0;
  released: { reference: string; amountCents: number }[] = [];

  constructor(private readonly captureDelayMs = 0) {
    super();
  }

  override async capture(...args: Parameters<SandboxProcessor['capture']>) {
    this.captures += 1;
    if (this.captureDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.captureDelayMs));
    return super.capture(...args);
  }

  override async release(reference: string, amountCents: number) {
    this.released.push({ reference, amountCents });
    return super.release(reference, amountCents);
  }
}
