import { describe, expect, it } from 'vitest';
import { RealtimeEvent } from './realtime-event';

/** Reads one server frame (unmasked) as RFC 6455 lays it out: FIN and opcode, the length in 7, 16 or 64 bits, the payload. */
function readFrame(frame: Buffer): { fin: boolean; opcode: number; masked: boolean; payload: string } {
  const short = frame[1]! & 0x7f;
  const [length, offset] = short === 126 ? [frame.readUInt16BE(2), 4] : short === 127 ? [Number(frame.readBigUInt64BE(2)), 10] : [short, 2];
  expect(frame.length).toBe(offset + length);
  return { fin: (frame[0]! & 0x80) !== 0, opcode: frame[0]! & 0x0f, masked: (frame[1]! & 0x80) !== 0, payload: frame.subarray(offset).toString('utf8') };
}

describe('RealtimeEvent.frame', () => {
  it.each([
    ['a short payload', 'x'],
    ['a payload over 125 bytes once UTF-8 encoded', 'ü'.repeat(70)],
    ['a payload over 64 KB', 'é'.repeat(40_000)],
  ])('is one unmasked final text frame carrying the message, for %s', (_, name) => {
    const payload = JSON.stringify({ TransactionNumber: 'T-1', businessName: name });
    const event = new RealtimeEvent('6f7a7c56-0000-4000-8000-000000000001', 'T-1', 3, payload);
    const frame = event.frame('full');
    expect(readFrame(frame)).toEqual({ fin: true, opcode: 1, masked: false, payload: event.message('full') });
    expect(event.frame('full')).toBe(frame); // built once, shared by every subscriber
  });

  it('frames each view once, with the view its message shows', () => {
    const payload = JSON.stringify({
      TransactionNumber: 'T-2',
      paymentCommit: {
        messsage: 'Payment committed',
        isPaymentCommitted: true,
        secondsToCommit: 600,
        commitLink: 'http://localhost/transactions/commitPayment/cmt_x',
      },
      paymentDetails: { type: 'authorization', token: 'auth_x' },
      posData: { till: 4 },
    });
    const event = new RealtimeEvent('6f7a7c56-0000-4000-8000-000000000002', 'T-2', 2, payload);
    const browser = JSON.parse(readFrame(event.frame('browser')).payload) as { transaction: Record<string, unknown> };
    expect(browser.transaction).toMatchObject({ paymentCommit: { isPaymentCommitted: true, commitLink: null }, paymentDetails: null, posData: null });
    expect(readFrame(event.frame('full')).payload).toBe(event.message('full'));
  });
});
