import type { ReadinessCheck } from '../readiness';
import type { PaymentProcessor } from './processor';

/**
 * What `/readyz` (the metrics listener's, with details) says of a connector: when its acquirer last answered a call.
 * Reported, never required: an acquirer that has not been called yet (or is down) leaves the instance ready, and its
 * calls are answered or retried as usual.
 */
export function connectorReadiness(processor: PaymentProcessor, now: () => Date = () => new Date()): () => ReadinessCheck {
  return () => {
    if (!processor.remote) return { ok: true, detail: `${processor.kind}: answers in memory` };
    const last = processor.lastAnswerAt ?? null;
    if (!last) return { ok: true, detail: `${processor.kind}: no call answered since this instance started` };
    return { ok: true, detail: `${processor.kind}: last call answered ${((now().getTime() - last.getTime()) / 1000).toFixed(1)} s ago` };
  };
}
