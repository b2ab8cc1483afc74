/** The events module's public surface: the merchant's event log and redelivery, by API and CLI. */
export { eventPage, redeliverEvent } from './event-log';
export { eventsRoutes } from './events.routes';
