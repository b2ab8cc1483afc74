import { randomUUID } from 'node:crypto';
import {
  WS_CLOSE_CODES,
  WsClientMessageSchema,
  type WsClientMessage,
  type WsCloseCode,
  type WsErrorCode,
  type WsScope,
  type WsServerMessage,
  type WsSubscribeTransaction,
} from '@svc/protocol';
import type { Duplex } from 'node:stream';
import { WebSocket, type RawData } from 'ws';
import { unstorableText } from '../http/storable-text';
import type { Logger } from '../logger';
import { describeAudience, scopeFilterFor, viewFor, type Audience, type ObjectForm } from './audience';
import type { Hub } from './hub';
import type { RealtimeEvent } from './realtime-event';
import { ScopeSubscription, type ScopeEventStore } from './scope-subscription';
import { TransactionSubscription, type EventStore, type SubscriptionSink, type TransactionSubscriptionOptions } from './transaction-subscription';

export interface ConnectionContext {
  hub: Hub;
  logger: Logger;
  /** The store as this connection's audience may see it. */
  store: (audience: Audience) => EventStore;
  /** The store scope subscriptions catch up from (their filter is their audience). */
  scopeStore: ScopeEventStore;
  /** The clock events are stamped with. */
  now: () => Date;
  /** Bytes the socket may hold unsent (counting the message about to go) before the client counts as a slow consumer. */
  slowConsumerBytes: number;
  maxSubscriptions: number;
  subscription: TransactionSubscriptionOptions;
}

/** Client messages waiting behind a running subscribe; a client that piles up more is closed. */
const MAX_QUEUED_MESSAGES = 32;

/**
 * One websocket: parses client messages, holds its subscriptions (each one also in the hub), and is the sink
 * their messages go through, which is where slow consumers are cut off. Subscribe and unsubscribe run one at a
 * time, in the order sent; ping is answered at once.
 */
export class Connection implements SubscriptionSink {
  readonly id = randomUUID();
  readonly view: ObjectForm;
  readonly closed: Promise<void>;
  readonly #store: EventStore;
  readonly #transactions = new Map<string, TransactionSubscription>();
  readonly #scopes = new Map<WsScope, ScopeSubscription>();
  #alive = true;
  #closing = false;
  #queue: Promise<void> = Promise.resolve();
  #queued = 0;

  constructor(
    private readonly ws: WebSocket,
    /** The upgraded socket ws runs on (handleUpgrade's): prepared event frames are written to it directly. */
    private readonly socket: Duplex,
    readonly audience: Audience,
    private readonly ctx: ConnectionContext,
  ) {
    this.view = viewFor(audience);
    this.#store = ctx.store(audience);
    ws.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
    ws.on('pong', () => {
      this.#alive = true;
    });
    // Protocol errors (a frame over the size limit, bad UTF-8): ws closes the socket itself; 'close' follows.
    ws.on('error', (error) => this.ctx.logger.info({ connectionId: this.id, err: error }, 'websocket: protocol error'));
    this.closed = new Promise((resolve) => {
      ws.once('close', (code) => {
        this.#dispose();
        this.ctx.logger.info({ connectionId: this.id, code }, 'websocket closed');
        resolve();
      });
    });
    ctx.logger.info({ connectionId: this.id, ...describeAudience(audience) }, 'websocket connected');
  }

  /** Called by the heartbeat timer: a connection that did not answer the last ping is dropped. */
  heartbeat(): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (!this.#alive) {
      this.ctx.logger.info({ connectionId: this.id }, 'websocket: no pong, terminating');
      this.ws.terminate();
      return;
    }
    this.#alive = false;
    this.ws.ping();
  }

  /** Closes with `code`; the subscriptions end at once. */
  close(code: WsCloseCode, reason: string): void {
    if (this.#closing) return;
    this.#dispose();
    this.ws.close(code, reason);
  }

  /** Drops the socket without a closing handshake (shutdown of a client that does not answer). */
  terminate(): void {
    this.#dispose();
    this.ws.terminate();
  }

  /** Resolves once the messages being handled are done (their store reads included). */
  settled(): Promise<void> {
    return this.#queue;
  }

  sendMessage(message: WsServerMessage): boolean {
    return this.sendText(JSON.stringify(message));
  }

  follows(transactionNumber: string): boolean {
    return this.#transactions.has(transactionNumber);
  }

  sendText(text: string): boolean {
    if (!this.#mayWrite(Buffer.byteLength(text))) return false;
    this.ws.send(text);
    return true;
  }

  /**
   * A transaction event: its frame, built once for every subscriber, written to the socket as it is (no encoding,
   * measuring or framing per socket). ws writes its own frames to the same socket synchronously and in call order
   * (no compression is negotiated: perMessageDeflate is off), so the two never interleave; once the connection is
   * closing nothing more is written.
   */
  sendEvent(event: RealtimeEvent): boolean {
    const frame = event.frame(this.view);
    if (!this.#mayWrite(frame.length)) return false;
    this.socket.write(frame);
    return true;
  }

  /** Open, and the socket's unsent bytes plus `bytes` within the slow-consumer limit (else it is closed as one). */
  #mayWrite(bytes: number): boolean {
    if (this.#closing || this.ws.readyState !== WebSocket.OPEN) return false;
    if (this.ws.bufferedAmount + bytes > this.ctx.slowConsumerBytes) {
      this.ctx.logger.warn({ connectionId: this.id, bufferedBytes: this.ws.bufferedAmount }, 'websocket: slow consumer, closing');
      this.close(WS_CLOSE_CODES.SLOW_CONSUMER, 'slow_consumer');
      return false;
    }
    return true;
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    if (this.#closing) return;
    if (isBinary) {
      this.#refuse(WS_CLOSE_CODES.UNSUPPORTED_DATA, 'malformed_message', 'Binary frames are not understood: send JSON text.');
      return;
    }
    const message = parseClientMessage(rawText(data));
    if (!message) {
      this.#refuse(
        WS_CLOSE_CODES.POLICY_VIOLATION,
        'malformed_message',
        'Not a client message: send JSON such as {"type":"subscribe","transactionNumber":"…"}.',
      );
      return;
    }
    if (message.type === 'ping') {
      this.sendMessage({ type: 'pong' });
      return;
    }
    if (this.#queued >= MAX_QUEUED_MESSAGES) {
      this.#refuse(WS_CLOSE_CODES.POLICY_VIOLATION, 'rate_limited', 'Too many messages in flight: wait for each subscribed answer.');
      return;
    }
    this.#queued += 1;
    this.#queue = this.#queue
      .then(() => this.#handle(message))
      .catch((error: unknown) => this.ctx.logger.error({ err: error, connectionId: this.id }, 'websocket: handling a message failed'))
      .finally(() => {
        this.#queued -= 1;
      });
  }

  async #handle(message: Exclude<WsClientMessage, { type: 'ping' }>): Promise<void> {
    if (this.#closing) return;
    if (message.type === 'unsubscribe') {
      const subscription = this.#transactions.get(message.transactionNumber);
      if (subscription) this.#forget(subscription);
      return;
    }
    if ('scope' in message) {
      this.#subscribeScope(message.scope);
      return;
    }
    await this.#subscribeTransaction(message);
  }

  #subscribeScope(scope: WsScope): void {
    if (!this.#scopes.has(scope)) {
      const filter = scopeFilterFor(this.audience, scope);
      if (!filter) {
        this.#sendError(
          'scope_not_allowed',
          scope === 'merchant' ? 'The merchant scope needs an API key.' : 'The device scope needs a device ID (?deviceId=).',
        );
        return;
      }
      if (this.#subscriptionCount() >= this.ctx.maxSubscriptions) {
        this.#sendError('too_many_subscriptions', `At most ${this.ctx.maxSubscriptions} subscriptions per connection.`);
        return;
      }
      const subscription = new ScopeSubscription(filter, this, this.ctx.scopeStore, this.ctx.logger, this.ctx.now());
      this.#scopes.set(scope, subscription);
      this.ctx.hub.addScope(subscription);
    }
    this.sendMessage({ type: 'subscribed', scope, replayed: 0 });
  }

  async #subscribeTransaction({ transactionNumber, afterSequence }: WsSubscribeTransaction): Promise<void> {
    // Subscribing again replaces the subscription (a client catching up with a new afterSequence).
    const existing = this.#transactions.get(transactionNumber);
    if (existing) this.#forget(existing);
    else if (this.#subscriptionCount() >= this.ctx.maxSubscriptions) {
      this.#sendError('too_many_subscriptions', `At most ${this.ctx.maxSubscriptions} subscriptions per connection.`, transactionNumber);
      return;
    }
    const subscription = new TransactionSubscription(transactionNumber, this, this.#store, this.ctx.subscription, this.ctx.logger, (ended) =>
      this.#forget(ended),
    );
    this.#transactions.set(transactionNumber, subscription);
    // In the hub before the store is read: see TransactionSubscription.
    this.ctx.hub.addTransaction(subscription);
    await subscription.start(afterSequence);
  }

  #forget(subscription: TransactionSubscription): void {
    subscription.close();
    this.ctx.hub.removeTransaction(subscription);
    if (this.#transactions.get(subscription.transactionNumber) === subscription) this.#transactions.delete(subscription.transactionNumber);
  }

  #subscriptionCount(): number {
    return this.#transactions.size + this.#scopes.size;
  }

  #sendError(code: WsErrorCode, message: string, transactionNumber?: string): void {
    this.sendMessage(transactionNumber === undefined ? { type: 'error', code, message } : { type: 'error', code, message, transactionNumber });
  }

  #refuse(closeCode: WsCloseCode, code: WsErrorCode, message: string): void {
    this.ctx.logger.info({ connectionId: this.id, code }, 'websocket: refusing a client message');
    this.#sendError(code, message);
    this.close(closeCode, code);
  }

  #dispose(): void {
    if (this.#closing) return;
    this.#closing = true;
    for (const subscription of [...this.#transactions.values()]) this.#forget(subscription);
    for (const subscription of this.#scopes.values()) this.ctx.hub.removeScope(subscription);
    this.#scopes.clear();
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

/** The client message in a text frame, or null for anything else. */
export function parseClientMessage(text: string): WsClientMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  // Text the database cannot take (U+0000, a lone surrogate) makes no message, wherever it is.
  if (unstorableText(json) !== null) return null;
  const parsed = WsClientMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
