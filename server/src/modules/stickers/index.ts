/** The stickers module's public surface: what other modules and the wiring may use. */
export { newestPayableLinkOfDevice } from './stickers.queries';
