import type { Clock } from '../clock';
import type { Database, Queryable } from '../db/client';
import { isDatabaseUnavailable, OutageLog } from '../db/database-outage';
import type { Env } from '../env';
import { redactSensitive, type Logger } from '../logger';
import { metrics } from '../metrics';
import { inSpan } from '../tracing';
import { WakeableSleep } from '../wakeable-sleep';
import type { ChannelSenders } from './message-outbox';
import { claimDueMessages, recordMessageOutcome, type ClaimedMessage, type MessageOutcome } from './messages.queries';

/**
 * How long a claimed message is held before another claim may take it: longer than an attempt can last (an SMS post
 * has 10 s; SMTP 10 s to connect, 10 s for the greeting, 10 s of silence).
 */
const LEASE_MS = 60_000;

/**
 * What an SMS's end means for its transaction (transactions' `recordSmsOutcome`: its `SMS` reads Sent or Failed, as
 * an update), written in the database transaction that records the message's outcome.
 */
export type SmsOutcome = (tx: Queryable, transactionId: string, state: 'Sent' | 'Failed', now: Date, baseUrl: string) => Promise<unknown>;

export interface MessageSenderDeps {
  db: Database;
  clock: Clock;
  env: Pick<Env, 'MESSAGE_RETRY_SCHEDULE_S' | 'PUBLIC_BASE_URL'>;
  logger: Logger;
  /** The provider of each channel (providerSenders). */
  senders: ChannelSenders;
  smsOutcome: SmsOutcome;
  /** Messages sent at once. */
  batchSize?: number;
  /** How long to sleep when nothing is due and nobody wakes it. */
  idleMs?: number;
  /** Called on every turn of the running loop, for readiness. */
  onTick?: () => void;
}

export interface MessageSender {
  /** Claims and sends what is due now; resolves with how many attempts were made. */
  runOnce(): Promise<number>;
  /** Ends a sleep early (a message was queued). */
  wake(): void;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The message sender (production): claims the queued link messages that are due (claimDueMessages: SKIP LOCKED, so
 * instances share them and never take the same one), hands each to its channel's provider, and writes the outcome.
 * A refusal (an answer other than 2xx, an SMTP rejection, a timeout, no answer) is tried again after the next wait of
 * MESSAGE_RETRY_SCHEDULE_S; after the last, the message is `failed`. An SMS's end moves its transaction's `SMS` from
 * Pending to Sent or Failed, in the same database transaction, as an update (event, websocket update, callback).
 * Messages are sent at least once: an instance that dies mid-attempt leaves its message to be sent again when the
 * lease ends (the SMS gateway sees the same `webhook-id`).
 */
export function createMessageSender(deps: MessageSenderDeps): MessageSender {
  const batchSize = deps.batchSize ?? 16;
  const schedule = deps.env.MESSAGE_RETRY_SCHEDULE_S;
  const outage = new OutageLog(deps.logger, 'message sender');
  let stopped = false;
  let loop: Promise<void> = Promise.resolve();
  // Sleeps when nothing is due; a wake-up that arrives while the loop is busy is not lost (wakeable-sleep.ts).
  const idle = new WakeableSleep(deps.idleMs ?? 1000);

  const attempt = (message: ClaimedMessage): Promise<void> =>
    inSpan('message attempt', { 'svc.message.channel': message.channel, 'svc.message.attempt': message.attemptNo }, () => send(message));

  const send = async (message: ClaimedMessage): Promise<void> => {
    const sender = deps.senders[message.channel];
    let error = 'no provider is configured for this channel';
    let accepted = false;
    if (sender) {
      try {
        accepted = await sender.send(message);
        if (!accepted) error = 'the provider did not accept the message';
      } catch (thrown) {
        // The error's text only, scrubbed of anything shaped like personal data: a provider may echo the recipient.
        error = String(redactSensitive((thrown as Error).message));
      }
    }
    const now = deps.clock.now();
    const wait = schedule[message.attemptNo - 1];
    const outcome: MessageOutcome = accepted
      ? { status: 'sent' }
      : wait === undefined
        ? { status: 'failed', error }
        : { status: 'queued', error, nextAttemptAt: new Date(now.getTime() + wait * 1000) };
    const written = await deps.db.transaction(async (tx) => {
      if (!(await recordMessageOutcome(tx, message, outcome))) return false;
      if (message.channel === 'sms' && outcome.status !== 'queued') {
        await deps.smsOutcome(tx, message.transactionId, outcome.status === 'sent' ? 'Sent' : 'Failed', now, deps.env.PUBLIC_BASE_URL);
      }
      return true;
    });
    const fields = { messageId: message.id, channel: message.channel, attempt: message.attemptNo };
    if (!written) {
      deps.logger.info(fields, 'message attempt ended after its lease ran out; a newer attempt decides what follows');
      return;
    }
    metrics.messages.inc({ channel: message.channel, outcome: outcome.status === 'queued' ? 'retrying' : outcome.status });
    if (outcome.status === 'sent') deps.logger.debug(fields, 'link message accepted by its provider');
    else if (outcome.status === 'failed') deps.logger.warn({ ...fields, error }, 'link message failed for good: its provider refused every attempt');
    else deps.logger.info({ ...fields, error, nextAttemptAt: outcome.nextAttemptAt.toISOString() }, 'link message not accepted; will retry');
  };

  const runOnce = async (): Promise<number> => {
    const claimed = await claimDueMessages(deps.db, deps.clock.now(), batchSize, LEASE_MS);
    const ended = await Promise.allSettled(claimed.map(attempt));
    const failed = ended.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    return claimed.length;
  };

  return {
    runOnce,
    wake: () => idle.wake(),
    start() {
      loop = (async () => {
        while (!stopped) {
          deps.onTick?.();
          let claimed = 0;
          try {
            claimed = await runOnce();
            outage.recovered();
          } catch (error) {
            // An outcome not written leaves its message claimed until the lease ends; it is then attempted again.
            if (isDatabaseUnavailable(error)) outage.failed(error);
            else deps.logger.error({ err: error }, 'message sending failed; retrying shortly');
          }
          if (!stopped && claimed < batchSize) await idle.sleep();
        }
      })();
    },
    async stop() {
      stopped = true;
      idle.cancel();
      await loop;
    },
  };
}
