import type { Clock } from '../../clock';
import type { Env } from '../../env';
import type { MessageOutbox } from '../../messages/message-outbox';
import type { PaymentProcessor } from '../../processor/processor';

/** What the lifecycle services need besides a transaction handle. */
export interface LifecycleDeps {
  env: Env;
  clock: Clock;
  processor: PaymentProcessor;
  /** Where consumer messages (payment links by SMS or e-mail) go. */
  messages: MessageOutbox;
}
