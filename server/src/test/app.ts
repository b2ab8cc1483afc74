import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../app';
import { DatabaseHealth } from '../db/database-health';
import type { Clock } from '../clock';
import { SandboxClock } from '../modules/sandbox/sandbox-clock';
import { sessionTokenResolver } from '../modules/sdk-sessions';
import { loadEnv, testHarnessEnvironment, type Env } from '../env';
import { CredentialCache, forgetChangedCredentials } from '../http/credential-cache';
import { RateLimiter } from '../http/rate-limit';
import { attachRealtime, type Realtime, type RealtimeOptions } from '../realtime/attach-realtime';
import type { SessionTokenResolver } from '../realtime/session-token';
import type { PaymentProcessor } from '../processor/processor';
import type { ProcessorRegistry } from '../processor/processor-registry';
import { SandboxProcessor } from '../processor/sandbox-processor';
import type { MessageOutbox } from '../messages/message-outbox';
import { createLogger, type Logger } from '../logger';
import type { TestDatabase } from './database';

export interface TestApp {
  baseUrl: string;
  /** ws://…/ws of this app (served only when started with `realtime`). */
  wsUrl: string;
  realtime: Realtime | null;
  env: Env;
  clock: Clock;
  logger: Logger;
  /** fetch against the app: `request('/healthz')`, with JSON bodies serialised for you. */
  request(path: string, init?: { method?: string; headers?: Record<string, string>; body?: unknown; rawBody?: string }): Promise<Response>;
  close(): Promise<void>;
}

/** The real app on an ephemeral port, wired to a test database, a manual clock and a silent logger. */
export interface TestAppOptions {
  env?: Record<string, string>;
  limiter?: RateLimiter;
  clock?: Clock;
  logger?: Logger;
  /** Attach the websocket endpoint, as main.ts does (with these options, or the defaults for `true`). */
  realtime?: RealtimeOptions | true;
  resolveSessionToken?: SessionTokenResolver;
  /** The payment processor; the sandbox one by default. */
  processor?: PaymentProcessor;
  /** Each merchant's processor: merchants' own accounts (MerchantProcessors); absent, every merchant's is `processor`. */
  processors?: ProcessorRegistry;
  /** The consumer message outbox; the sandbox one by default. */
  messages?: MessageOutbox;
}

export async function startTestApp(
  database: Pick<TestDatabase, 'db' | 'sql' | 'url'> & Partial<Pick<TestDatabase, 'probe' | 'listener'>>,
  options: TestAppOptions = {},
): Promise<TestApp> {
  const env = loadEnv({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://localhost:8080', ...options.env });
  // The shared sandbox test clock unless the test brings a clock of its own.
  const testClock = options.clock ? undefined : new SandboxClock(database.db);
  await testClock?.refresh();
  const clock = options.clock ?? testClock!;
  // TEST_LOG_LEVEL=error shows what a failing test's server logged.
  const logger = options.logger ?? createLogger({ level: testHarnessEnvironment().logLevel ?? 'silent' });
  const limiter = options.limiter ?? new RateLimiter(env.RATE_LIMIT_PER_S, env.RATE_LIMIT_BURST);
  const deps = { env, db: database.db, sql: database.sql, logger, clock, limiter };
  // As in main.ts: credentials kept for CREDENTIAL_CACHE_S, forgotten at once when a trigger announces a change.
  const credentials = new CredentialCache(env.CREDENTIAL_CACHE_S * 1000);
  const listener = database.listener ?? database.sql;
  const credentialChanges = await forgetChangedCredentials(listener, credentials);
  const databaseHealth = database.probe ? { databaseHealth: new DatabaseHealth(database.probe, logger) } : {};
  const processor = options.processor ?? new SandboxProcessor();
  const server = http.createServer(
    createApp({
      ...deps,
      ...(testClock ? { testClock } : {}),
      processor,
      ...(options.processors ? { processors: options.processors } : {}),
      credentials,
      ...databaseHealth,
      ...(options.messages ? { messages: options.messages } : {}),
    }),
  );
  const realtime = options.realtime
    ? await attachRealtime(server, {
        ...deps,
        listener,
        ...(options.realtime === true ? {} : { options: options.realtime }),
        resolveSessionToken: options.resolveSessionToken ?? sessionTokenResolver(),
      })
    : null;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed = false;
  return {
    baseUrl,
    wsUrl: `${baseUrl.replace('http:', 'ws:')}/ws`,
    realtime,
    env,
    clock,
    logger,
    request: (path, init = {}) => {
      const headers: Record<string, string> = { ...init.headers };
      let body: string | undefined = init.rawBody;
      if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
      return fetch(`${baseUrl}${path}`, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await realtime?.close();
      await credentialChanges.unlisten();
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}
