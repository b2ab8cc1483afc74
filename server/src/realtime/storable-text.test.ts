import { Writable } from 'node:stream';
import { WS_CLOSE_CODES } from '@svc/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { bearer } from '../test/app';
import { isError, PUBLIC_BASE_URL, upgradeStatus, useRealtimeApp } from './testing';

/** Text PostgreSQL cannot take (U+0000), sent over the websocket, is refused as bad input: never a failure in a query. */
const errors: string[] = [];
const t = useRealtimeApp({
  logger: createLogger({
    level: 'error',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        errors.push(chunk.toString());
        done();
      },
    }),
  }),
});

afterEach(() => {
  expect(errors).toEqual([]);
});

describe('U+0000 over the websocket', () => {
  it('in a credential of the upgrade: refused as an unknown credential', async () => {
    expect(await upgradeStatus(t.app, { query: { link: 'abcdefghijklmnop\u0000' }, origin: PUBLIC_BASE_URL })).toBe(401);
    expect(await upgradeStatus(t.app, { query: { deviceId: `${t.merchant.deviceId}\u0000` } })).toBe(401);
    expect(await upgradeStatus(t.app, { query: { session: 'sess_\u0000' }, origin: 'http://localhost:3000' })).toBe(401);
  });

  it('in a message: a malformed message', async () => {
    const socket = await t.socket({ headers: bearer(t.merchant.apiKey) });
    socket.send({ type: 'subscribe', transactionNumber: 'A\u0000B' });
    expect(await socket.next(isError)).toMatchObject({ code: 'malformed_message' });
    expect((await socket.closed).code).toBe(WS_CLOSE_CODES.POLICY_VIOLATION);
  });
});
