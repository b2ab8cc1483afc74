import { signCallback, signStandardWebhook } from '@svc/protocol';
import type { Clock } from '../../clock';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import type { Logger } from '../../logger';
import { sendCallback, type SendOutcome, type SendRequest } from './callback-sender';
import { claimDueDeliveries, recordOutcomes, type AttemptOutcome, type ClaimedDelivery, type EndpointEvent, type OutcomeWrite } from './callbacks.queries';
import { OutcomeBatch } from './outcome-batch';
import { afterAttempt, type RetryPolicy } from './retry-schedule';
import { isDatabaseUnavailable, OutageLog } from '../../db/database-outage';
import { metrics } from '../../metrics';
import { inSpan } from '../../tracing';
import { WakeableSleep } from '../../wakeable-sleep';

export interface DispatcherDeps {
  db: Database;
  clock: Clock;
  env: Pick<Env, 'CALLBACK_ALLOW_PRIVATE_NETWORKS' | 'CALLBACK_RETRY_SCHEDULE_S' | 'CALLBACK_GIVE_UP_AFTER_S' | 'CALLBACK_TIMEOUT_MS'>;
  logger: Logger;
  /** Deliveries sent at once. */
  batchSize?: number;
  /** How long to sleep when nothing is due and nobody wakes it. */
  idleMs?: number;
  /** The wall clock in unix seconds, for `webhook-timestamp` (verifiers compare it with their real time). */
  wallSeconds?: () => number;
  /** Name resolution for callback hosts (tests); the address guard always wraps it. */
  lookup?: SendRequest['lookup'];
  /** Called on every turn of the running loop, for readiness. */
  onTick?: () => void;
}

export interface CallbackDispatcher {
  /** Claims and sends what is due now; resolves with how many attempts were made. */
  runOnce(): Promise<number>;
  /** Ends a sleep early (an events notification says a delivery was queued). */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * The callback dispatcher: claims due deliveries (see claimDueDeliveries), signs and sends each attempt, and
 * writes its outcome and the next attempt by the retry schedule, following the service clock. Outcomes are written
 * in batches (OutcomeBatch, recordOutcomes); an attempt counts as done once its outcome is committed, and decides
 * what follows only while it still holds its delivery (a late outcome is dropped: recordOutcomes).
 */
export function createCallbackDispatcher(deps: DispatcherDeps): CallbackDispatcher & { start(): void } {
  const batchSize = deps.batchSize ?? 32;
  const wallSeconds = deps.wallSeconds ?? (() => Math.floor(Date.now() / 1000));
  const policy: RetryPolicy = { scheduleS: deps.env.CALLBACK_RETRY_SCHEDULE_S, giveUpAfterS: deps.env.CALLBACK_GIVE_UP_AFTER_S };
  let stopped = false;
  // Sleeps when nothing is due; a wake-up that arrives while the loop is busy is not lost (wakeable-sleep.ts).
  const idle = new WakeableSleep(deps.idleMs ?? 1000);
  const wake = () => idle.wake();
  let loop: Promise<void> = Promise.resolve();
  // Outcomes of attempts that end together are written in one statement (outcome-batch.ts).
  const outcomes = new OutcomeBatch<AttemptOutcome, OutcomeWrite>((batch) => recordOutcomes(deps.db, batch));

  const attempt = (delivery: ClaimedDelivery): Promise<void> =>
    inSpan('callback attempt', { 'svc.callback.attempt': delivery.attemptNo, 'http.request.method': delivery.method }, () => send(delivery));

  /**
   * What an attempt sends: a transaction's callback (the transaction, signed both ways with the merchant's secret), or
   * an event to a webhook endpoint (the event object, signed the Standard Webhooks way with the endpoint's own secret).
   */
  const message = async (delivery: ClaimedDelivery): Promise<{ body: string; url: URL; signature: Record<string, string> }> => {
    const url = new URL(delivery.url);
    const event = delivery.endpointEvent;
    if (event) {
      const body = eventBody(event, delivery.payload);
      const timestamp = wallSeconds();
      const signature = await signStandardWebhook(event.secret, event.eventId, timestamp, body);
      return { body, url, signature: { 'webhook-id': event.eventId, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature } };
    }
    const body = delivery.method === 'POST' ? delivery.payload : '';
    if (delivery.method === 'GET') {
      url.searchParams.set('TransactionNumber', delivery.transactionNumber);
      url.searchParams.set('callbackType', 'transaction_status');
    }
    // While a rolled secret's overlap lasts, both secrets sign (docs/integrating.md#rolling-the-hmac-secret).
    const secrets = { secret: delivery.hmacSecret, previousSecret: delivery.previousHmacSecret };
    return { body, url, signature: { ...(await signCallback(secrets, delivery.eventId, body, wallSeconds())) } };
  };

  const send = async (delivery: ClaimedDelivery): Promise<void> => {
    // An endpoint disabled or removed since its event was queued gets nothing: the delivery ends unsent.
    if (delivery.endpointEvent?.off) return endUnsent(delivery);
    const { body, url, signature } = await message(delivery);
    let outcome: SendOutcome;
    try {
      outcome = await sendCallback({
        url: url.toString(),
        method: delivery.method,
        body,
        timeoutMs: deps.env.CALLBACK_TIMEOUT_MS,
        allowPrivateNetworks: deps.env.CALLBACK_ALLOW_PRIVATE_NETWORKS,
        ...(deps.lookup ? { lookup: deps.lookup } : {}),
        headers: {
          'user-agent': 'svc-callbacks/1.0',
          ...(delivery.method === 'POST' ? { 'content-type': 'application/json' } : {}),
          ...signature,
        },
      });
    } catch (error) {
      outcome = { ok: false, httpStatus: null, error: (error as Error).message, communicationError: true, durationMs: 0 };
    }
    const now = deps.clock.now();
    const next = afterAttempt(outcome, delivery.schedulePosition, delivery.windowStartedAt, now, policy);
    const written = await outcomes.record({
      deliveryId: delivery.deliveryId,
      attemptNo: delivery.attemptNo,
      httpStatus: outcome.httpStatus,
      error: outcome.error,
      durationMs: outcome.durationMs,
      next,
      finishedAt: now,
    });
    const where = `${url.origin}${url.pathname}`;
    const fields = {
      deliveryId: delivery.deliveryId,
      eventId: delivery.endpointEvent?.eventId ?? delivery.eventId,
      ...(delivery.endpointEvent ? { endpointId: delivery.endpointEvent.endpointId, eventType: delivery.endpointEvent.type } : {}),
      attempt: delivery.attemptNo,
      url: where,
      httpStatus: outcome.httpStatus,
      durationMs: outcome.durationMs,
    };
    metrics.callbackDeliveries.inc({ outcome: written === 'superseded' ? 'superseded' : next.state === 'pending' ? 'retrying' : next.state });
    if (written === 'superseded') {
      deps.logger.info(
        { ...fields, code: 'callback_outcome_superseded' },
        'callback attempt ended after its lease ran out or a redelivery started it over; a newer attempt decides what follows',
      );
      return;
    }
    if (next.state === 'succeeded') deps.logger.debug(fields, 'callback delivered');
    else if (next.state === 'failed') deps.logger.warn({ ...fields, error: outcome.error, reason: next.reason }, 'callback failed for good');
    else deps.logger.info({ ...fields, error: outcome.error, nextAttemptAt: next.nextAttemptAt.toISOString() }, 'callback attempt failed; will retry');
  };

  const endUnsent = async (delivery: ClaimedDelivery): Promise<void> => {
    const reason = 'the webhook endpoint is disabled or removed';
    const written = await outcomes.record({
      deliveryId: delivery.deliveryId,
      attemptNo: delivery.attemptNo,
      httpStatus: null,
      error: reason,
      durationMs: 0,
      next: { state: 'failed', reason },
      finishedAt: deps.clock.now(),
    });
    metrics.callbackDeliveries.inc({ outcome: written === 'superseded' ? 'superseded' : 'failed' });
    deps.logger.info(
      { deliveryId: delivery.deliveryId, endpointId: delivery.endpointEvent?.endpointId, code: 'webhook_endpoint_off' },
      'event not sent: ' + reason,
    );
  };

  const lease = () => deps.env.CALLBACK_TIMEOUT_MS + 5_000;

  /** A database outage is logged once, not once per poll. */
  const outage = new OutageLog(deps.logger, 'callback dispatch');

  /**
   * An attempt whose outcome was not written. Nothing is lost: the delivery stays claimed until its lease ends and is
   * then attempted again (callbacks are at least once). An outage waits for the database; anything else means the
   * database refused this outcome even alone (OutcomeBatch wrote the others of its batch), and wants a look.
   */
  const reportUnrecorded = (delivery: ClaimedDelivery, error: unknown) => {
    if (isDatabaseUnavailable(error)) outage.failed(error);
    else
      deps.logger.error(
        { err: error, code: 'callback_attempt_unrecorded', deliveryId: delivery.deliveryId, attempt: delivery.attemptNo },
        'callback attempt outcome could not be recorded; the delivery is attempted again when its lease ends',
      );
  };

  const runOnce = async (): Promise<number> => {
    // The lease outlasts an attempt (its timeout plus a margin), so no other instance takes a row being sent.
    const claimed = await claimDueDeliveries(deps.db, deps.clock.now(), batchSize, lease());
    // Every attempt runs to its end (its outcome written or refused) before the first failure is reported.
    const ended = await Promise.allSettled(claimed.map(attempt));
    ended.forEach((result, i) => {
      if (result.status === 'rejected') reportUnrecorded(claimed[i]!, result.reason);
    });
    const failed = ended.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    return claimed.length;
  };

  /**
   * The running loop keeps up to `batchSize` attempts in flight and claims more as soon as there is room and work:
   * a delivery queued while others are being sent goes out at once instead of waiting for the whole batch (one slow
   * merchant endpoint does not hold back the rest). It refills when half the slots are free, not on every
   * completion, so a backlog is still claimed in batches.
   */
  const inFlight = new Set<Promise<void>>();
  const refillAt = Math.max(1, Math.floor(batchSize / 2));
  /** The last claim was limited by the free slots, not by what was due: completions should wake the loop. */
  let starved = false;

  const fill = async (): Promise<number> => {
    const room = batchSize - inFlight.size;
    if (room <= 0) return 0;
    const claimed = await claimDueDeliveries(deps.db, deps.clock.now(), room, lease());
    for (const delivery of claimed) {
      const running: Promise<void> = attempt(delivery)
        .catch((error: unknown) => reportUnrecorded(delivery, error))
        .finally(() => {
          inFlight.delete(running);
          if (starved && batchSize - inFlight.size >= refillAt) wake();
        });
      inFlight.add(running);
    }
    return claimed.length;
  };

  return {
    runOnce,
    wake,
    start() {
      loop = (async () => {
        while (!stopped) {
          deps.onTick?.();
          let claimed = 0;
          const room = batchSize - inFlight.size;
          try {
            claimed = await fill();
            outage.recovered();
          } catch (error) {
            if (isDatabaseUnavailable(error)) outage.failed(error);
            else deps.logger.error({ err: error }, 'callback dispatch failed; retrying shortly');
          }
          // Every free slot was filled (or there was none): more may be due, so completions wake the loop once
          // half the slots are free. Otherwise nothing else is due: sleep until a delivery is queued or the idle poll.
          starved = claimed === room;
          const roomAgain = batchSize - inFlight.size >= refillAt; // attempts that ended while claiming
          if (!stopped && !(starved && roomAgain)) await idle.sleep();
        }
        await Promise.all(inFlight);
      })();
    },
    async stop() {
      stopped = true;
      idle.cancel();
      await loop;
    },
  };
}

/**
 * The body of an event sent to a webhook endpoint: `{ eventId, type, createdAt, data: { transaction, refund? } }`, the
 * transaction the exact bytes of its transaction event (so every attempt, and the event log, carry the same object).
 */
export function eventBody(event: Pick<EndpointEvent, 'eventId' | 'type' | 'createdAt' | 'refund'>, transactionPayload: string): string {
  const head = JSON.stringify({ eventId: event.eventId, type: event.type, createdAt: event.createdAt.toISOString() }).slice(0, -1);
  return `${head},"data":{"transaction":${transactionPayload}${event.refund === null ? '' : `,"refund":${event.refund}`}}}`;
}
