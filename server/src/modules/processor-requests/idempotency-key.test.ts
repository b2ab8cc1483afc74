import { expect, it } from 'vitest';
import type { Clock } from '../../clock';
import { insertTokenizedMethod } from '../../test/fixtures';
import { UNTHROTTLED, useTestApp } from '../../test/harness';

/**
 * A processor request fills in (or frees) the Idempotency-Key it took, told from the same key taken again after it
 * expired by the time the key was taken, kept with the request: not by comparing the key's time with the request's,
 * which a clock stepping back between the two (an NTP step; here 1 ms a read) would get wrong, leaving the key in
 * flight (409 to every retry) for 24 h though the payment was recorded.
 */
class SteppingBackClock implements Clock {
  #ms = Date.parse('2026-11-24T06:00:00.000Z');
  now(): Date {
    this.#ms -= 1;
    return new Date(this.#ms);
  }
}

const t = useTestApp({ env: { ...UNTHROTTLED }, clock: new SteppingBackClock() });

it('a recorded token charge fills in its answer under its Idempotency-Key even when the clock stepped back', async () => {
  const token = await insertTokenizedMethod(t.database.db, t.merchant.merchantId, 'clock');
  const first = await t.client.pay({ token, amount: 1_234, currency: 'USD' }, { 'idempotency-key': 'clock-1' });
  expect(first.status).toBe(200);
  const replay = await t.client.pay({ token, amount: 1_234, currency: 'USD' }, { 'idempotency-key': 'clock-1' });
  expect(replay.status).toBe(200);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(first.body);
});
