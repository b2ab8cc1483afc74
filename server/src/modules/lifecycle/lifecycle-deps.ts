import type { Clock } from '../../clock';
import type { Env } from '../../env';
import type { PaymentProcessor } from '../../processor/processor';

/** What the lifecycle services need besides a transaction handle. */
export interface LifecycleDeps {
  env: Env;
  clock: Clock;
  processor: PaymentProcessor;
}
