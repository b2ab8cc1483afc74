/**
 * The sandbox processor's test cards (docs/integrating.md#sandbox). Any future expiry and any 3-digit CVC.
 * `refundsDeclined`: the payment is approved, and every refund of it is declined (`refund_declined`).
 */
export const SANDBOX_TEST_CARDS = [
  { number: '4242424242424242', outcome: 'approved', processor: 'alpha', supportsCloseAuth: true, refundsDeclined: false },
  { number: '5555555555554444', outcome: 'approved', processor: 'beta', supportsCloseAuth: false, refundsDeclined: false },
  { number: '4000000000000002', outcome: 'card_declined', processor: 'alpha', supportsCloseAuth: true, refundsDeclined: false },
  { number: '4000000000009995', outcome: 'insufficient_funds', processor: 'alpha', supportsCloseAuth: true, refundsDeclined: false },
  { number: '4000000000000119', outcome: 'processor_failure', processor: 'alpha', supportsCloseAuth: true, refundsDeclined: false },
  { number: '4000000000005126', outcome: 'approved', processor: 'alpha', supportsCloseAuth: true, refundsDeclined: true },
] as const;

/**
 * The sandbox's 3-D Secure cards (docs/integrating.md#3-d-secure), on processor alpha: `challenge` asks the consumer
 * on the simulated bank page, then approves (or declines `authentication_failed` after "Fail authentication");
 * `frictionless` approves at once with `threeDSecure.flow` frictionless; `challenge_declined` asks, then declines
 * `card_declined` once the challenge is completed.
 */
export const SANDBOX_3DS_CARDS = [
  { number: '4000000000003220', threeDSecure: 'challenge' },
  { number: '4000000000003055', threeDSecure: 'frictionless' },
  { number: '4000008400001629', threeDSecure: 'challenge_declined' },
] as const;
export type Sandbox3dsBehaviour = (typeof SANDBOX_3DS_CARDS)[number]['threeDSecure'];

export type SandboxCardOutcome = (typeof SANDBOX_TEST_CARDS)[number]['outcome'];
export const SANDBOX_PROCESSORS = ['alpha', 'beta'] as const;
export type SandboxProcessorName = (typeof SANDBOX_PROCESSORS)[number];
