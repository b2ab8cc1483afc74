import type { Queryable } from '../db/client';

/** How a message reaches the consumer (docs/operating.md#plugging-in-a-message-provider). */
export type MessageChannel = 'sms' | 'email';

/** One message to one consumer about one transaction, its text already written. */
export interface OutboundMessage {
  merchantId: string;
  transactionId: string;
  channel: MessageChannel;
  /** A phone number (sms) or an e-mail address (email), as the merchant gave it. */
  recipient: string;
  body: string;
}

/** What the service needs of the send: the database transaction of the change that sends it, and its time. */
export interface SendContext {
  db: Queryable;
  now: Date;
}

/**
 * The port through which the core sends consumers their messages (payment links by SMS or e-mail). The sandbox
 * implementation records each message in the database (readable at GET /sandbox/messages); an SMS or e-mail
 * provider plugs in behind the same interface and reports whether it accepted the message.
 */
export interface MessageOutbox {
  /** Whether this outbox can send on `channel` at all: an init asking for a channel it cannot is refused, creating nothing. */
  canSend(channel: MessageChannel): boolean;
  send(message: OutboundMessage, context: SendContext): Promise<{ delivered: boolean }>;
}
