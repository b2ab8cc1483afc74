/**
 * The callbacks module's face for other modules' query files: the channel that wakes every instance's dispatcher,
 * notified by a statement that queued a delivery the events notice does not announce (an event for a webhook endpoint).
 */
export { CALLBACKS_WAKE_CHANNEL } from './callbacks.queries';
