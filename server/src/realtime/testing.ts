/**
 * Test support for the realtime module (imported by its *.test.ts only): the real app and `attachRealtime` on
 * one http.Server, as main.ts wires them, and a websocket client that keeps every message it receives.
 */
import type http from 'node:http';
import { WsServerMessageSchema, type ProvisionedMerchant, type WsServerMessage } from '@svc/protocol';
import { afterAll, beforeAll } from 'vitest';
import { WebSocket } from 'ws';
import type { RateLimiter } from '../http/rate-limit';
import type { Logger } from '../logger';
import { startTestApp, type TestApp } from '../test/app';
import { createTestDatabase, type TestDatabase } from '../test/database';
import { provisionTestMerchant } from '../test/fixtures';
import { merchantClient, type MerchantClient } from '../test/merchant-client';
import type { Realtime, RealtimeDeps, RealtimeOptions } from './attach-realtime';

export const PUBLIC_BASE_URL = 'http://localhost:8080';

export interface RealtimeTestApp extends TestApp {
  realtime: Realtime;
}

/** The real app with the websocket endpoint attached, as main.ts wires them. */
export async function startRealtimeApp(
  database: Parameters<typeof startTestApp>[0],
  options: {
    realtime?: RealtimeOptions;
    limiter?: RateLimiter;
    logger?: Logger;
    resolveSessionToken?: RealtimeDeps['resolveSessionToken'];
    env?: Record<string, string>;
  } = {},
): Promise<RealtimeTestApp> {
  const app = await startTestApp(database, {
    realtime: options.realtime ?? true,
    ...(options.env ? { env: options.env } : {}),
    ...(options.limiter ? { limiter: options.limiter } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.resolveSessionToken ? { resolveSessionToken: options.resolveSessionToken } : {}),
  });
  return app as RealtimeTestApp;
}

export type RealtimeAppOptions = NonNullable<Parameters<typeof startRealtimeApp>[1]>;

export interface RealtimeHarness {
  database: TestDatabase;
  app: RealtimeTestApp;
  merchant: ProvisionedMerchant;
  client: MerchantClient;
  /** Opens a socket on the app, or on another instance `on` (as openSocket), closed when the file ends. */
  socket(options?: SocketOptions, on?: Pick<RealtimeTestApp, 'wsUrl'>): Promise<TestSocket>;
}

/**
 * The usual realtime test file set-up: a fresh database, the app with its websocket endpoint on it, one merchant and
 * its HTTP client; the sockets opened with `socket`, the app and the database are closed after the file. Read the
 * fields inside tests (they exist once beforeAll has run).
 */
export function useRealtimeApp(options: RealtimeAppOptions & { merchantName?: string; origins?: string[] } = {}): RealtimeHarness {
  const { merchantName, origins, ...appOptions } = options;
  const sockets: TestSocket[] = [];
  const harness: RealtimeHarness = {
    socket: async (socketOptions, on) => {
      const socket = await openSocket(on ?? harness.app, socketOptions);
      sockets.push(socket);
      return socket;
    },
  } as RealtimeHarness;
  beforeAll(async () => {
    harness.database = await createTestDatabase();
    harness.app = await startRealtimeApp(harness.database, appOptions);
    harness.merchant = await provisionTestMerchant(harness.database.db, merchantName, origins);
    harness.client = merchantClient(harness.app, harness.merchant);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await harness.app?.close();
    await harness.database?.drop();
  });
  return harness;
}

export interface SocketOptions {
  query?: Record<string, string>;
  headers?: Record<string, string>;
  origin?: string;
  autoPong?: boolean;
}

/** A websocket client that records every server message (each checked against the protocol schema). */
export class TestSocket {
  readonly messages: WsServerMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  #waiters: (() => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(WsServerMessageSchema.parse(JSON.parse(String(data))));
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message (from `from` on) that satisfies `match`, waiting up to `timeoutMs`. */
  async next<T extends WsServerMessage>(match: (message: WsServerMessage) => message is T, timeoutMs?: number, from?: number): Promise<T>;
  async next(match: (message: WsServerMessage) => boolean, timeoutMs?: number, from?: number): Promise<WsServerMessage>;
  async next(match: (message: WsServerMessage) => boolean, timeoutMs = 5_000, from = 0): Promise<WsServerMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message; got ${JSON.stringify(this.messages.map((m) => m.type))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Transaction updates received, in order. */
  updates(transactionNumber?: string) {
    return this.messages.filter(
      (m): m is Extract<WsServerMessage, { type: 'transaction.updated' }> =>
        m.type === 'transaction.updated' && (transactionNumber === undefined || m.transaction.TransactionNumber === transactionNumber),
    );
  }

  close(): Promise<{ code: number; reason: string }> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close();
    return this.closed;
  }
}

function socketUrl(app: Pick<RealtimeTestApp, 'wsUrl'>, query: Record<string, string> = {}, path = '/ws'): string {
  const url = new URL(app.wsUrl);
  url.pathname = path;
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** Opens a socket; rejects with the HTTP status when the upgrade is refused. */
export function openSocket(app: Pick<RealtimeTestApp, 'wsUrl'>, options: SocketOptions = {}, path?: string): Promise<TestSocket> {
  const ws = new WebSocket(socketUrl(app, options.query, path), {
    headers: options.headers,
    ...(options.origin ? { origin: options.origin } : {}),
    ...(options.autoPong === false ? { autoPong: false } : {}),
  });
  const socket = new TestSocket(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(socket));
    ws.once('unexpected-response', (_req, res) => {
      reject(new UpgradeRefused(res.statusCode ?? 0, res.headers));
      res.resume();
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    readonly headers: http.IncomingHttpHeaders,
  ) {
    super(`upgrade refused with ${status}`);
  }
}

/** The status of a refused upgrade (or 101 when it was accepted, closing the socket at once). */
export async function upgradeStatus(app: Pick<RealtimeTestApp, 'wsUrl'>, options: SocketOptions = {}, path?: string): Promise<number> {
  try {
    const socket = await openSocket(app, options, path);
    await socket.close();
    return 101;
  } catch (error) {
    if (error instanceof UpgradeRefused) return error.status;
    throw error;
  }
}

export const isSubscribed = (m: WsServerMessage): m is Extract<WsServerMessage, { type: 'subscribed' }> => m.type === 'subscribed';
export const isError = (m: WsServerMessage): m is Extract<WsServerMessage, { type: 'error' }> => m.type === 'error';
export const isUpdate = (m: WsServerMessage): m is Extract<WsServerMessage, { type: 'transaction.updated' }> => m.type === 'transaction.updated';
