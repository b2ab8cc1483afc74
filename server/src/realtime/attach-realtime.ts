import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WEBSOCKET_PATH, WS_CLOSE_CODES, WS_MAX_MESSAGE_BYTES, WS_MAX_SUBSCRIPTIONS } from '@svc/protocol';
import { WebSocketServer } from 'ws';
import type { AppDeps } from '../app-deps';
import type { Listener } from '../db/resilient-listener';
import type { Audience } from './audience';
import { BROWSER_SOCKET_LIMITS, BrowserSocketCounts, type BrowserSocketLimits } from './browser-socket-caps';
import { metrics } from '../metrics';
import { Connection, type ConnectionContext } from './connection';
import { startEventsBridge } from './events-bridge';
import { postgresBus, type UpdateBus } from '../update-bus';
import { CREDENTIALS_CHANNEL, parseCredentialChange } from '../http/credential-cache';
import { proxyTrust } from '../http/client-address';
import { Hub } from './hub';
import { eventsAfter, eventsInScopeSince, findVisibleTransaction, transactionEventsSince } from './realtime.queries';
import type { SessionTokenResolver } from './session-token';
import { authenticateUpgrade } from './upgrade-auth';

export interface RealtimeOptions {
  /** Protocol-level ping interval; a connection that has not answered the previous ping is dropped. Default 30 s. */
  heartbeatIntervalMs?: number;
  /** Unsent bytes a socket may hold before it is closed with 4008 (slow consumer). Default 1 MiB. */
  slowConsumerBytes?: number;
  /** Subscriptions per connection. Default WS_MAX_SUBSCRIPTIONS (100). */
  maxSubscriptions?: number;
  /** Events read (and sent) per replay query. Default 100. */
  replayPageSize?: number;
  /** How long `close()` waits for clients to answer the close frame before dropping them. Default 2 s. */
  closeTimeoutMs?: number;
  /**
   * Merchants' and devices' sockets this instance holds; upgrades beyond it are answered 503 with Retry-After.
   * Browser sockets are capped apart (browserSockets), so they never take these places. Default 10,000.
   */
  maxConnections?: number;
  /** Browser sockets per link or session, per client address and in all; beyond them an upgrade answers 429. Default BROWSER_SOCKET_LIMITS. */
  browserSockets?: BrowserSocketLimits;
}

export type RealtimeDeps = Pick<AppDeps, 'env' | 'db' | 'sql' | 'logger' | 'limiter' | 'clock'> & {
  options?: RealtimeOptions;
  /** Where credential changes are heard (and the postgres bus listens); defaults to `sql` (main.ts passes its ResilientListener). */
  listener?: Listener;
  /** Where updates are heard: the postgres bus on `listener` unless given (main.ts opens the one REALTIME_BUS names). */
  bus?: UpdateBus;
  /** Resolves `?session=` tokens (sdk-sessions' `sessionTokenResolver`). */
  resolveSessionToken: SessionTokenResolver;
};

export interface Realtime {
  /** Stops accepting sockets, stops listening, closes every socket with 1001 and stops the timers. */
  close(): Promise<void>;
}

/**
 * The websocket endpoint (docs/integrating.md#websocket) on `server`: upgrades of `{base_url}/ws` are authenticated and
 * become connections; every other upgrade is answered 404. Resolves once this instance listens for events,
 * so an update committed after it resolves reaches the subscribers here.
 */
export async function attachRealtime(server: Server, deps: RealtimeDeps): Promise<Realtime> {
  const { db, logger, limiter, env } = deps;
  const options = deps.options ?? {};
  const closeTimeoutMs = options.closeTimeoutMs ?? 2_000;
  const maxConnections = options.maxConnections ?? 10_000;
  const hub = new Hub();
  const connections = new Set<Connection>();
  // The merchants' and devices' sockets, which maxConnections caps; browser sockets are counted in `browserSockets`.
  let credentialSockets = 0;
  const browserSockets = new BrowserSocketCounts(options.browserSockets ?? BROWSER_SOCKET_LIMITS);
  const trust = proxyTrust(env.TRUST_PROXY);
  const listener = deps.listener ?? deps.sql;
  const bus = deps.bus ?? postgresBus({ db, listener, logger });
  const bridge = await startEventsBridge({ bus, db, hub, logger, clock: deps.clock });
  // A revoked or deleted credential loses its open sockets too, not only its next request.
  const credentialChanges = await listener.listen(CREDENTIALS_CHANNEL, (payload) => {
    const change = parseCredentialChange(payload);
    for (const connection of connections) {
      if (connection.audience.kind === 'credential' && (!change || connection.audience.principal.credentialId === change.credentialId)) {
        connection.close(WS_CLOSE_CODES.CREDENTIAL_REVOKED, 'credential revoked');
      }
    }
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_MESSAGE_BYTES, perMessageDeflate: false });
  const upgrading = new Set<Promise<void>>();
  let closing = false;

  const context: ConnectionContext = {
    hub,
    logger,
    store: (audience: Audience) => ({
      findVisible: (transactionNumber) => findVisibleTransaction(db, audience, transactionNumber),
      eventsAfter: (transactionId, afterSequence, limit) => eventsAfter(db, transactionId, afterSequence, limit),
    }),
    now: () => deps.clock.now(),
    scopeStore: {
      eventsInScopeSince: (filter, since, limit) => eventsInScopeSince(db, filter, since, limit),
      transactionEventsSince: (transactionId, afterSequence, since, limit) => transactionEventsSince(db, transactionId, afterSequence, since, limit),
    },
    slowConsumerBytes: options.slowConsumerBytes ?? 1024 * 1024,
    maxSubscriptions: options.maxSubscriptions ?? WS_MAX_SUBSCRIPTIONS,
    subscription: { pageSize: options.replayPageSize ?? 100, maxBuffered: 10_000 },
  };

  const accept = async (req: IncomingMessage, socket: Duplex, head: Buffer, url: URL) => {
    const verdict = await authenticateUpgrade(req, url, {
      db,
      env,
      trust,
      limiter,
      resolveSessionToken: deps.resolveSessionToken,
    }).catch((error: unknown) => {
      logger.error({ err: error }, 'websocket: authenticating an upgrade failed');
      return { ok: false as const, status: 500, reason: 'internal_error' };
    });
    if (socket.destroyed) return;
    if (closing) return refuseUpgrade(socket, 503);
    if (!verdict.ok) {
      logger.info({ status: verdict.status, reason: verdict.reason }, 'websocket: upgrade refused');
      return refuseUpgrade(
        socket,
        verdict.status,
        'retryAfterS' in verdict && verdict.retryAfterS !== undefined ? { 'Retry-After': String(verdict.retryAfterS) } : {},
      );
    }
    // Checked after authentication, right before the (synchronous) hand-over, so the counts are current.
    let place: () => void;
    if (verdict.browserSubject !== null) {
      // A browser's socket takes a place of its link or session and of its address, never one of the merchants' and devices'.
      const taken = browserSockets.take(verdict.browserSubject, verdict.clientAddress);
      if (!taken) {
        logger.info({ status: 429, reason: 'too_many_sockets' }, 'websocket: upgrade refused');
        return refuseUpgrade(socket, 429, { 'Retry-After': '5' });
      }
      place = taken;
    } else {
      if (credentialSockets >= maxConnections) {
        // Every socket costs memory and a share of each fan-out: past the cap, clients go to another instance or retry.
        logger.warn({ connections: credentialSockets, maxConnections }, 'websocket: connection cap reached, upgrade refused');
        return refuseUpgrade(socket, 503, { 'Retry-After': '5' });
      }
      credentialSockets += 1;
      place = () => {
        credentialSockets -= 1;
      };
    }
    // Given back once, when the connection ends, or when the socket goes without becoming one (a failed handshake).
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      place();
    };
    socket.once('close', release);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new Connection(ws, socket, verdict.audience, context);
      connections.add(connection);
      metrics.websocketConnections.inc();
      void connection.closed.then(() => {
        metrics.websocketConnections.dec();
        connections.delete(connection);
        release();
      });
    });
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // The query string carries credentials (?link, ?deviceId, ?session): it is never logged.
    const url = new URL(req.url ?? '/', 'http://upgrade.invalid');
    if (url.pathname !== WEBSOCKET_PATH) return refuseUpgrade(socket, 404);
    if (closing) return refuseUpgrade(socket, 503);
    const onSocketError = (error: Error) => logger.info({ err: error }, 'websocket: socket error during the upgrade');
    socket.on('error', onSocketError);
    const done = accept(req, socket, head, url)
      .catch((error: unknown) => {
        logger.error({ err: error }, 'websocket: accepting an upgrade failed');
        socket.destroy();
      })
      .finally(() => {
        socket.off('error', onSocketError);
        upgrading.delete(done);
      });
    upgrading.add(done);
  };
  server.on('upgrade', onUpgrade);

  const heartbeat = setInterval(() => {
    for (const connection of connections) connection.heartbeat();
  }, options.heartbeatIntervalMs ?? 30_000);
  heartbeat.unref();

  return {
    async close() {
      if (closing) return;
      closing = true;
      server.off('upgrade', onUpgrade);
      clearInterval(heartbeat);
      try {
        await credentialChanges.unlisten();
        await bridge.stop();
      } catch (error) {
        // Whatever the listener does, the sockets below are still closed and the server can stop.
        logger.warn({ err: error }, 'websocket: stopping the events listener failed');
      }
      await Promise.allSettled(upgrading);
      const open = [...connections];
      for (const connection of open) connection.close(WS_CLOSE_CODES.GOING_AWAY, 'server shutting down');
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, closeTimeoutMs);
      });
      await Promise.race([Promise.all(open.map((connection) => connection.closed)), timedOut]);
      clearTimeout(timer);
      for (const connection of connections) connection.terminate();
      await Promise.all(open.map((connection) => Promise.all([connection.closed, connection.settled()])));
      await new Promise<void>((resolve, reject) => wss.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** A plain HTTP answer to an upgrade that does not become a websocket; then the socket goes. */
function refuseUpgrade(socket: Duplex, status: number, headers: Record<string, string> = {}): void {
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Connection: close',
    'Content-Length: 0',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.once('finish', () => socket.destroy());
  socket.end(`${lines.join('\r\n')}\r\n\r\n`);
}
