import { describe, expect, it } from 'vitest';
import { loadEnv } from '../env';
import { processorForMode, ProcessorConfigError } from './processor-for-mode';
import { SandboxProcessor } from './sandbox-processor';
import { StripeProcessor } from './stripe/stripe-processor';

const production = { SVC_MODE: 'production', DATABASE_URL: 'postgres://svc@db/svc', PUBLIC_BASE_URL: 'https://pay.example.com' };

describe('processorForMode', () => {
  it('gives the sandbox its processor', () => {
    expect(processorForMode(loadEnv({}))).toBeInstanceOf(SandboxProcessor);
  });

  it('refuses the sandbox processor in production, saying a processor must be configured', () => {
    expect(() => processorForMode(loadEnv(production))).toThrow(ProcessorConfigError);
    expect(() => processorForMode(loadEnv(production))).toThrow(/needs a payment processor, and none is configured/);
    expect(() => processorForMode(loadEnv({ ...production, PROCESSOR: 'sandbox' }))).toThrow(/PROCESSOR=sandbox is configured/);
  });

  it('gives the Stripe connector with PROCESSOR=stripe, in production and in the sandbox', () => {
    const stripe = { PROCESSOR: 'stripe', STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };
    expect(processorForMode(loadEnv({ ...production, ...stripe }))).toBeInstanceOf(StripeProcessor);
    expect(processorForMode(loadEnv({ ...stripe, STRIPE_API_BASE: 'http://127.0.0.1:18420' })).kind).toBe('stripe');
  });
});
