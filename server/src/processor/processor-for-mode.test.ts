import { describe, expect, it } from 'vitest';
import { processorForMode, ProcessorConfigError } from './processor-for-mode';
import { SandboxProcessor } from './sandbox-processor';

describe('processorForMode', () => {
  it('gives the sandbox its processor', () => {
    expect(processorForMode({ SVC_MODE: 'sandbox' })).toBeInstanceOf(SandboxProcessor);
  });

  it('refuses the sandbox processor in production, saying a processor must be configured', () => {
    expect(() => processorForMode({ SVC_MODE: 'production' })).toThrow(ProcessorConfigError);
    expect(() => processorForMode({ SVC_MODE: 'production' })).toThrow(/needs a payment processor, and none is configured/);
  });
});
