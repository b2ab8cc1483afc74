/** The sdk-sessions module's public surface: what other modules and the wiring may use. */
export { originAllowed } from './origin-check';
export { sessionTokenResolver } from './session-grant';
export { decideSessionAfterAuthentication } from './sdk-sessions.service';
export { findLiveSession } from './sdk-sessions.queries';
