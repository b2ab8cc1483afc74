/** The expiry module's public surface: the sweeps that time out, expire and release what nobody finished in time. */
export { sweepDue } from './expiry';
export { startExpiryWorker } from './expiry-worker';
