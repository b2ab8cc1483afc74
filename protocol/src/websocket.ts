import { z } from 'zod';
import type { WS_CLOSE_CODES } from './constants';
import { TransactionSchema } from './transaction';

/**
 * The websocket at `{base_url}/ws` (docs/integrating.md#websocket). Every frame is one JSON text message, a union on `type`.
 *
 * Authentication happens on the upgrade request, never in a message: a merchant backend sends
 * `Authorization: Bearer sk_…|bk_…`; a terminal `?deviceId=dev_…`; the hosted payment page `?link=<linkId>`
 * (with an `Origin` of the service itself); an SDK `?session=<token>` (with an allowed `Origin`). Refusals are
 * plain HTTP answers to the upgrade: 401 unknown credentials, 403 a wrong or missing `Origin`, 429 rate limited.
 */
export const WEBSOCKET_PATH = '/ws';

/** A text frame larger than this closes the connection with 1009 (message too big). */
export const WS_MAX_MESSAGE_BYTES = 16 * 1024;

/** Subscriptions (transactions and scopes together) one connection may hold; more answer `too_many_subscriptions`. */
export const WS_MAX_SUBSCRIPTIONS = 100;

export type WsCloseCode = (typeof WS_CLOSE_CODES)[keyof typeof WS_CLOSE_CODES];

/**
 * Codes of `error` frames (and of refused upgrades and close reasons, for logs and documentation). An `error`
 * frame for a subscription carries its `transactionNumber`; the connection stays open unless a close follows.
 */
export const WS_ERROR_CODES = [
  /** Upgrade refused with 401: missing or unknown credentials. */
  'unauthorized',
  /** Upgrade refused with 403: the browser's `Origin` is missing or not allowed for this credential. */
  'forbidden_origin',
  /** Upgrade refused with 429. */
  'rate_limited',
  /** Upgrade refused with 429: a browser socket's link, SDK session or client address already holds as many sockets as it may. */
  'too_many_sockets',
  /** The message is not JSON or not a known client message; the connection is closed (1008, or 1003 for binary). */
  'malformed_message',
  /** No such transaction for this credential (another merchant's or branch's answers the same). */
  'not_found',
  /** This credential cannot subscribe to this scope (`merchant` needs an API key, `device` a device ID). */
  'scope_not_allowed',
  /** The connection already holds WS_MAX_SUBSCRIPTIONS subscriptions. */
  'too_many_subscriptions',
  /** Close reason of 4008. */
  'slow_consumer',
  /** The server failed to serve the message; try again. */
  'internal_error',
] as const;
export const WsErrorCodeSchema = z.enum(WS_ERROR_CODES);
export type WsErrorCode = z.infer<typeof WsErrorCodeSchema>;

export const WS_SCOPES = ['merchant', 'device'] as const;
export const WsScopeSchema = z.enum(WS_SCOPES);
export type WsScope = z.infer<typeof WsScopeSchema>;

const TransactionNumberSchema = z.string().min(1).max(64).describe('The TransactionNumber of the transaction');

// ——— client → server ———

/**
 * Updates of one transaction. With `afterSequence`, the updates after it are replayed first, in order, then
 * `subscribed`, then live ones, without gaps or duplicates. Without it, live updates from the current sequence on.
 * Subscribing again to the same transaction replaces the subscription. A transaction this credential may not
 * see answers `error` `not_found`, as one that does not exist.
 */
export const WsSubscribeTransactionSchema = z.strictObject({
  type: z.literal('subscribe'),
  transactionNumber: TransactionNumberSchema,
  afterSequence: z.number().int().min(0).optional().describe('The last sequence the client has seen; 0 replays every update'),
});

/**
 * Updates of every transaction of a scope, from now on (no replay): `merchant` (API keys; a branch key gets its
 * branch's) or `device` (device IDs: the transactions sent to that terminal, new ones included).
 */
export const WsSubscribeScopeSchema = z.strictObject({
  type: z.literal('subscribe'),
  scope: WsScopeSchema,
});

export const WsUnsubscribeSchema = z.strictObject({ type: z.literal('unsubscribe'), transactionNumber: TransactionNumberSchema });

/** Answered with `pong`; the server also sends protocol-level pings every 30 s and drops a connection that misses one. */
export const WsPingSchema = z.strictObject({ type: z.literal('ping') });

/** Either subscribe: one message type, told apart by its fields (both strict, so a message with both is refused). */
export const WsSubscribeSchema = z.looseObject({ type: z.literal('subscribe') }).pipe(z.union([WsSubscribeTransactionSchema, WsSubscribeScopeSchema]));

export const WsClientMessageSchema = z.discriminatedUnion('type', [WsSubscribeSchema, WsUnsubscribeSchema, WsPingSchema]);
export type WsSubscribeTransaction = z.infer<typeof WsSubscribeTransactionSchema>;
export type WsSubscribeScope = z.infer<typeof WsSubscribeScopeSchema>;
export type WsClientMessage = z.infer<typeof WsClientMessageSchema>;

// ——— server → client ———

/**
 * A state change of a transaction: `transaction` is the transaction object as it was at `sequence` (the callback's body).
 * Browser sockets (`?link=`, `?session=`) get its browser view (BrowserTransactionSchema: no commitLink, token or POS data);
 * the merchant's and a device's sockets the whole object.
 */
export const WsTransactionUpdatedSchema = z.object({
  type: z.literal('transaction.updated'),
  eventId: z.string().describe("The event id; the same as the callback's webhook-id"),
  sequence: z.number().int().min(1),
  transaction: TransactionSchema,
});

/**
 * A subscription is in place. For a transaction it comes after the `replayed` updates it counts (those after
 * `afterSequence`, in order) and before any live one; for a scope, updates from now on follow.
 */
export const WsSubscribedSchema = z
  .looseObject({ type: z.literal('subscribed') })
  .pipe(
    z.union([
      z.object({ type: z.literal('subscribed'), transactionNumber: TransactionNumberSchema, replayed: z.number().int().min(0) }),
      z.object({ type: z.literal('subscribed'), scope: WsScopeSchema, replayed: z.literal(0) }),
    ]),
  );

export const WsErrorSchema = z.object({
  type: z.literal('error'),
  code: WsErrorCodeSchema,
  message: z.string(),
  transactionNumber: TransactionNumberSchema.optional().describe('The subscription the error is about, if any'),
});

export const WsPongSchema = z.object({ type: z.literal('pong') });

export const WsServerMessageSchema = z.discriminatedUnion('type', [WsTransactionUpdatedSchema, WsSubscribedSchema, WsErrorSchema, WsPongSchema]);
export type WsTransactionUpdated = z.infer<typeof WsTransactionUpdatedSchema>;
export type WsSubscribed = z.infer<typeof WsSubscribedSchema>;
export type WsError = z.infer<typeof WsErrorSchema>;
export type WsServerMessage = z.infer<typeof WsServerMessageSchema>;
