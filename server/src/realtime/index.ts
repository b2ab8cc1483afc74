export { attachRealtime, type Realtime, type RealtimeDeps, type RealtimeOptions } from './attach-realtime';
export { resolveSessionToken, sessionTokenResolver, type SessionGrant, type SessionTokenResolver } from './session-token';
