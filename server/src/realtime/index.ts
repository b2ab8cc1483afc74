export { attachRealtime, type Realtime, type RealtimeDeps, type RealtimeOptions } from './attach-realtime';
export type { SessionGrant, SessionTokenResolver } from './session-token';
