/**
 * The processor requests' face for other modules' query files (`*.queries.ts`): how a guarded write that a request
 * belongs to is declared (`guardedWrite`), so that the request goes in with it, in its statement.
 */
export { guardedWrite, type GuardedWrite } from './processor-requests.queries';
