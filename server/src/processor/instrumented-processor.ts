import type { ServiceMetrics } from '../metrics';
import { inSpan } from '../tracing';
import type { PaymentProcessor } from './processor';

/**
 * The processor with every call counted (svc_processor_calls_total by operation — the port's method name — and outcome:
 * approved, declined, failed, `done` for a call that answers nothing, `unanswered` when it threw) and, when tracing is
 * on, in a span of its own. Every method of the port is wrapped, those added later too. Nothing of a call's arguments
 * (a card, a reference, a key) reaches a label or an attribute.
 */
export function instrumentedProcessor<P extends PaymentProcessor>(processor: P, metrics: ServiceMetrics): P {
  const wrappers = new Map<PropertyKey, unknown>();
  return new Proxy(processor, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let wrapper = wrappers.get(property);
      if (!wrapper) {
        const operation = property;
        const call = value as (...args: unknown[]) => unknown;
        wrapper = (...args: unknown[]) =>
          inSpan(`processor ${operation}`, { 'svc.processor.operation': operation }, async (span) => {
            let outcome = 'unanswered';
            try {
              const result = await call.apply(target, args);
              outcome = (result as { outcome?: unknown } | undefined)?.outcome === undefined ? 'done' : String((result as { outcome: unknown }).outcome);
              return result;
            } finally {
              span?.setAttribute('svc.processor.outcome', outcome);
              metrics.processorCalls.inc({ operation, outcome });
            }
          });
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}
