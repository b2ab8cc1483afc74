import type { Clock } from './clock';
import type { Database } from './db/client';
import type { Env } from './env';
import type { Logger } from './logger';
import type { MessageOutbox } from './messages/message-outbox';
import type { PaymentProcessor } from './processor/processor';
import type { ProcessorRegistry } from './processor/processor-registry';

/** What the services need besides a transaction handle: the service-wide dependencies, typed below every module that uses them (app.ts wires them). */
export interface ServiceDeps {
  env: Env;
  /** For the processor calls made after a change commits, and the recording of their outcomes. */
  db: Database;
  logger: Logger;
  clock: Clock;
  /** The default account's processor (tests: the only one). */
  processor: PaymentProcessor;
  /** Each merchant's processor, its own account or the default (`processorOf`); absent, every merchant's is `processor`. */
  processors?: ProcessorRegistry;
  /** Where consumer messages (payment links by SMS or e-mail) go. */
  messages: MessageOutbox;
}
