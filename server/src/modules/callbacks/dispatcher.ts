import { signCallback } from '@svc/protocol';
import type { Clock } from '../../clock';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import type { Logger } from '../../logger';
import { sendCallback, type SendOutcome, type SendRequest } from './callback-sender';
import { claimDueDeliveries, completeAttempt, type ClaimedDelivery } from './callbacks.queries';
import { afterAttempt, type RetryPolicy } from './retry-schedule';

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
 * writes its outcome and the next attempt by the retry schedule, following the service clock.
 */
export function createCallbackDispatcher(deps: DispatcherDeps): CallbackDispatcher & { start(): void } {
  const batchSize = deps.batchSize ?? 32;
  const idleMs = deps.idleMs ?? 1000;
  const wallSeconds = deps.wallSeconds ?? (() => Math.floor(Date.now() / 1000));
  const policy: RetryPolicy = { scheduleS: deps.env.CALLBACK_RETRY_SCHEDULE_S, giveUpAfterS: deps.env.CALLBACK_GIVE_UP_AFTER_S };
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  let loop: Promise<void> = Promise.resolve();

  const attempt = async (delivery: ClaimedDelivery): Promise<void> => {
    const body = delivery.method === 'POST' ? delivery.payload : '';
    const url = new URL(delivery.url);
    if (delivery.method === 'GET') {
      url.searchParams.set('TransactionNumber', delivery.transactionNumber);
      url.searchParams.set('callbackType', 'transaction_status');
    }
    const signature = await signCallback(delivery.hmacSecret, delivery.eventId, body, wallSeconds());
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
    await completeAttempt(deps.db, delivery, outcome, next, now);
    const where = `${url.origin}${url.pathname}`;
    const fields = { deliveryId: delivery.deliveryId, eventId: delivery.eventId, attempt: delivery.attemptNo, url: where, httpStatus: outcome.httpStatus, durationMs: outcome.durationMs };
    if (next.state === 'succeeded') deps.logger.debug(fields, 'callback delivered');
    else if (next.state === 'failed') deps.logger.warn({ ...fields, error: outcome.error, reason: next.reason }, 'callback failed for good');
    else deps.logger.info({ ...fields, error: outcome.error, nextAttemptAt: next.nextAttemptAt.toISOString() }, 'callback attempt failed; will retry');
  };

  const runOnce = async (): Promise<number> => {
    // The lease outlasts an attempt (its timeout plus a margin), so no other instance takes a row being sent.
    const claimed = await claimDueDeliveries(deps.db, deps.clock.now(), batchSize, deps.env.CALLBACK_TIMEOUT_MS + 5_000);
    await Promise.all(claimed.map(attempt));
    return claimed.length;
  };

  // A wake-up that arrives while a batch is being sent must not be lost: it makes the next sleep return at once.
  let wokenWhileBusy = false;
  const sleep = () =>
    new Promise<void>((resolve) => {
      if (wokenWhileBusy) {
        wokenWhileBusy = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, idleMs);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  return {
    runOnce,
    wake: () => {
      if (wakeUp) wakeUp();
      else wokenWhileBusy = true;
    },
    start() {
      loop = (async () => {
        while (!stopped) {
          let sent = 0;
          try {
            sent = await runOnce();
          } catch (error) {
            deps.logger.error({ err: error }, 'callback dispatch failed; retrying shortly');
          }
          if (!stopped && sent < batchSize) await sleep();
        }
      })();
    },
    async stop() {
      stopped = true;
      wakeUp?.();
      await loop;
    },
  };
}
