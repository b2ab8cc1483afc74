export type { BusHandlers, UpdateBus } from './update-bus';
export { openUpdateBus } from './open-bus';
export { postgresBus } from './postgres-bus';
export { natsBus } from './nats-bus';
export { OutboxPublisher, startPublicationSweep, type PublicationSweep } from './outbox-publisher';
