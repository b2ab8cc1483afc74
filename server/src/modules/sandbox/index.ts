/** What outside the sandbox module may use: the shared test clock (main.ts and the operator CLI follow it in sandbox mode). */
export { SANDBOX_CLOCK_CHANNEL, SandboxClock } from './sandbox-clock';
