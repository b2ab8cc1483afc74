import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../env';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { openSocket, startRealtimeApp, UpgradeRefused, type RealtimeTestApp } from '../realtime/testing';
import { clientAddress, proxyTrust } from './client-address';
import { RateLimiter } from './rate-limit';

const request = (peer: string, forwardedFor?: string) =>
  ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;
const addressOf = (trustProxy: string, peer: string, forwardedFor?: string) =>
  clientAddress(request(peer, forwardedFor), proxyTrust(loadEnv({ TRUST_PROXY: trustProxy }).TRUST_PROXY));

describe('the client address', () => {
  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(addressOf('0', '203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
    expect(addressOf('false', '203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
  });

  it('is the address the last trusted proxy saw: with n hops, the n-th entry from the right', () => {
    // The client wrote "1.1.1.1, 2.2.2.2"; the one proxy appended the client's real address.
    expect(addressOf('1', '10.0.0.2', '1.1.1.1, 2.2.2.2, 203.0.113.9')).toBe('203.0.113.9');
    expect(addressOf('2', '10.0.0.2', '1.1.1.1, 203.0.113.9, 10.0.0.3')).toBe('203.0.113.9');
    expect(addressOf('2', '10.0.0.2', '203.0.113.9')).toBe('203.0.113.9');
    expect(addressOf('1', '10.0.0.2')).toBe('10.0.0.2');
  });

  it('with proxy addresses, walks back over the trusted ones only', () => {
    expect(addressOf('10.0.0.0/8', '10.0.0.2', '1.1.1.1, 203.0.113.9, 10.0.0.3')).toBe('203.0.113.9');
    expect(addressOf('10.0.0.2', '10.0.0.2', '1.1.1.1, 203.0.113.9')).toBe('203.0.113.9');
    expect(addressOf('10.0.0.2, ::1', '::ffff:10.0.0.2', '1.1.1.1, 203.0.113.9')).toBe('203.0.113.9');
    // A peer that is not one of the proxies is the client, whatever it forwards.
    expect(addressOf('10.0.0.2', '203.0.113.7', '1.1.1.1')).toBe('203.0.113.7');
  });
});

describe('TRUST_PROXY', () => {
  it('refuses true, naming what to give instead, and anything that is not a count or addresses', () => {
    for (const value of ['true', 'yes']) {
      expect(() => loadEnv({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY .*number of proxies.*TRUST_PROXY=1.*addresses/);
    }
    expect(() => loadEnv({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY /);
    expect(() => loadEnv({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY /);
  });
});

describe('behind one trusted proxy, a client rotating X-Forwarded-For', () => {
  let database: TestDatabase;
  let app: RealtimeTestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startRealtimeApp(database, { env: { TRUST_PROXY: '1' }, limiter: new RateLimiter(0.01, 3) });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  // What the proxy forwards: the client's own header, then the address it saw (the same client each time).
  const forwarded = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i}, 203.0.113.50` });

  it('is still limited by the address the proxy saw (HTTP)', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) statuses.push((await app.request('/pay/AAAAAAAAAAAAAAAAAAAAAAAA/state', { headers: forwarded(i) })).status);
    expect(statuses.slice(0, 3)).toEqual([404, 404, 404]);
    expect(statuses.slice(3)).toEqual([429, 429, 429]);
    // Another client behind the same proxy has a budget of its own.
    expect((await app.request('/pay/AAAAAAAAAAAAAAAAAAAAAAAA/state', { headers: { 'x-forwarded-for': '203.0.113.51' } })).status).toBe(404);
  });

  it('is still limited by the address the proxy saw (websocket upgrade)', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const error = await openSocket(app, { headers: { ...forwarded(100 + i), authorization: 'Bearer sk_unknown' } }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(UpgradeRefused);
      statuses.push((error as UpgradeRefused).status);
    }
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429, 429]);
  });
});
