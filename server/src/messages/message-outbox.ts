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
  /** The SMS, or an e-mail's text part. */
  body: string;
  /** An e-mail's subject; null for an SMS. */
  subject: string | null;
  /** An e-mail's HTML part (the text in the language's direction); null for an SMS. */
  html: string | null;
}

/** What the service needs of the send: the database transaction of the change that sends it, and its time. */
export interface SendContext {
  db: Queryable;
  now: Date;
}

/** Where a message stands once handed to the outbox: already `sent` (the sandbox records it), or `queued` for the sender. */
export type HandedOver = 'sent' | 'queued';

/**
 * The port through which the core sends consumers their messages (payment links by SMS or e-mail), in the database
 * transaction of the change that sends them. The sandbox implementation records each message as sent (readable at
 * GET /sandbox/messages); the production one queues it in the same transaction, and the message sender
 * (message-sender.ts) hands it to the provider after the commit, retrying what the provider did not accept.
 */
export interface MessageOutbox {
  /** Whether this outbox can send on `channel` at all: an init asking for a channel it cannot is refused, creating nothing. */
  canSend(channel: MessageChannel): boolean;
  send(message: OutboundMessage, context: SendContext): Promise<HandedOver>;
}

/** One queued message as a provider is given it: its id (the same on every attempt), recipient, text, and an e-mail's subject and HTML. */
export type SendableMessage = Pick<OutboundMessage, 'recipient' | 'body' | 'subject' | 'html'> & { id: string };

/** A provider of one channel: resolves true once it accepted the message; false or a throw is a refusal. */
export interface ChannelSender {
  send(message: SendableMessage): Promise<boolean>;
}

export type ChannelSenders = Partial<Record<MessageChannel, ChannelSender>>;
