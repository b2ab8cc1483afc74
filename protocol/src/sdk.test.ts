import { describe, expect, it } from 'vitest';
import { FrameToHostMessageSchema, HostToFrameMessageSchema, SdkConfigSchema } from './sdk';

const base = { source: 'svc-card-frame', instanceId: 'abcdefgh12' } as const;

describe('postMessage schemas', () => {
  it('parse every frame message, the two kinds of result included', () => {
    expect(FrameToHostMessageSchema.safeParse({ ...base, type: 'ready' }).success).toBe(true);
    expect(FrameToHostMessageSchema.safeParse({ ...base, type: 'size', height: 10, width: 20 }).success).toBe(true);
    expect(FrameToHostMessageSchema.safeParse({ ...base, type: 'result', requestId: 'r', ok: false, error: { code: 'card_declined', message: 'no' } }).success).toBe(true);
    expect(FrameToHostMessageSchema.safeParse({ ...base, type: 'result', requestId: 'r', ok: true, error: { code: 'card_declined', message: 'no' } }).success).toBe(false);
    expect(FrameToHostMessageSchema.safeParse({ ...base, type: 'result', requestId: 'r', ok: false, error: { code: 'bogus', message: 'no' } }).success).toBe(false);
  });

  it('drop what is not theirs', () => {
    expect(FrameToHostMessageSchema.safeParse({ ...base, source: 'someone-else', type: 'ready' }).success).toBe(false);
    expect(FrameToHostMessageSchema.safeParse({ ...base, instanceId: 'x', type: 'ready' }).success).toBe(false);
    expect(HostToFrameMessageSchema.safeParse({ source: 'svc-elements-host', instanceId: 'abcdefgh12', type: 'submit', requestId: 'r', card: { number: '4242' } }).success).toBe(false);
  });

  it('config refuses unknown options', () => {
    expect(SdkConfigSchema.safeParse({ mode: 'sandbox', clientId: 'ck_x', colour: 'red' }).success).toBe(false);
    expect(SdkConfigSchema.safeParse({ mode: 'sandbox', clientId: 'ck_x', methodType: 'authorize' }).success).toBe(true);
  });
});
