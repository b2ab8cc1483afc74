/** The callbacks module's public surface: what other modules and the wiring may use. */
export { callbackHostProblem } from './address-guard';
export { assertCallbackUrlAllowed } from './callback-url';
export { eventBody } from './dispatcher';
