import type { Clock } from '../../clock';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import type { Logger } from '../../logger';
import type { Outcome } from '../../mutations/stored-answer';
import type { AuthenticationReturn } from '../../processor/authentication-return';
import type { Approval, PaymentProcessor, ProcessorResult } from '../../processor/processor';
import { processorOf, type ProcessorRegistry } from '../../processor/processor-registry';
import {
  claimForCompletion,
  endAuthenticationRow,
  findAuthentication,
  findAuthenticationByRequestKey,
  findExpiredAuthentications,
  type AuthenticationRow,
} from '../authentication';
import { settleAuthenticationAttempt } from '../card-testing';
import { decideAfterAuthentication } from '../hosted-page';
import { decideSessionAfterAuthentication } from '../sdk-sessions';
import { logNothingFound, markReversed, PROCESSOR_LEASE_MS, reopenForReversal, withinTimeout, type ProcessorRequestRow } from '../processor-requests';

export interface AuthenticationFlowDeps {
  db: Database;
  processor: PaymentProcessor;
  processors?: ProcessorRegistry | undefined;
  clock: Clock;
  logger: Logger;
  env: Pick<Env, 'PUBLIC_BASE_URL' | 'AUTHORIZATION_HOLD_S' | 'COMMIT_WINDOW_S' | 'PROCESSOR_TIMEOUT_MS'>;
}

/** How an authentication ended, as the bank page says it and the cancel's caller reads it. */
export type AuthenticationEnd = { ended: true; authentication: AuthenticationRow } | { ended: false; authentication: AuthenticationRow | null };

/**
 * The consumer completed the bank's challenge: the payment goes on at the processor, the same payment under the
 * request key of the sale or authorization that asked (never a second charge), and its decision is recorded as any
 * other (approved, declined, awaiting commit...). The three steps of every processor call
 * (docs/design/processor-requests.md): the authentication is claimed (pending → completing, guarded: a second
 * completion finds it taken and changes nothing), the processor is called outside any transaction, and the decision
 * is recorded once, guarded on the claim. Unanswered, it is recorded as failed and the payment reversed by its key
 * (`endWith`: durably, the worker retries a reversal that does not succeed).
 * `returned`: what the bank's return carried, for a processor that reads its decision from it (Adyen's redirectResult).
 */
export async function completeAuthentication(deps: AuthenticationFlowDeps, id: string, returned?: AuthenticationReturn): Promise<AuthenticationEnd> {
  const claimed = await claimForCompletion(deps.db, id, deps.clock.now());
  if (!claimed) return { ended: false, authentication: await findAuthentication(deps.db, id) };
  // Found before the call: a database error here is the database's, never taken for the processor's silence.
  const processor = await processorOf(deps, claimed.merchantId);
  let result: ProcessorResult;
  try {
    // Only a processor with 3-D Secure answers `requires_action`, and it completes what it asked for.
    if (!processor.completeAuthentication) throw new Error(`the ${processor.kind} connector has no 3-D Secure, yet a payment waits for it`);
    result = await withinTimeout(processor.completeAuthentication(claimed.processorReference, claimed.requestKey, returned), deps.env.PROCESSOR_TIMEOUT_MS);
  } catch (error) {
    deps.logger.warn(
      { err: error, code: 'processor_unanswered', authenticationId: id },
      'the processor did not answer the completed authentication; reversing the payment',
    );
    const unanswered: ProcessorResult = { outcome: 'failed', processor: processor.kind, reason: 'the processor did not answer the completed authentication' };
    return (await endWith(deps, processor, claimed, ['completing'], unanswered, 'reverse')).end;
  }
  if (result.outcome !== 'approved') return (await endWith(deps, processor, claimed, ['completing'], result, 'keep')).end;
  return recordApproval(deps, processor, claimed, result);
}

/**
 * The processor approved the payment after the bank's yes: it is recorded, or reversed at the processor, never left
 * charged unrecorded (as a payment's approval is, docs/design/processor-requests.md). Its recording fails (the
 * database): the authentication is ended as failed instead, guarded on `completing` as the approval's would have been,
 * so once that commits the approval can never be recorded, and the payment is reversed. If that fails too, the row
 * stays `completing` and the expiry ends and reverses it. Recorded on a transaction that no longer waited for it
 * (ended meanwhile): reversed too.
 */
async function recordApproval(
  deps: AuthenticationFlowDeps,
  processor: PaymentProcessor,
  claimed: AuthenticationRow,
  approval: Approval,
): Promise<AuthenticationEnd> {
  try {
    return (await endWith(deps, processor, claimed, ['completing'], approval, 'keep')).end;
  } catch (error) {
    deps.logger.warn(
      { err: error, code: 'authentication_approval_unrecorded', authenticationId: claimed.id },
      "the processor's approval after 3-D Secure could not be recorded; ending the authentication as failed and reversing the payment",
    );
    const failed: ProcessorResult = { outcome: 'failed', processor: approval.processor, reason: 'the approval could not be recorded' };
    return (await endWith(deps, processor, claimed, ['completing'], failed, 'reverse')).end;
  }
}

/**
 * The processor told that the payment made with `requestKey` has left the bank's step (Stripe's
 * `payment_intent.succeeded`, `payment_intent.amount_capturable_updated` or `payment_intent.payment_failed`, which may
 * come before the consumer's return): its authentication is completed as the return would complete it, once. One
 * that names another payment (`reference`), none waiting, or one of a merchant whose account did not tell it
 * (`toldByItsAccount`: the teller's account is the merchant's processor account) changes nothing.
 */
export async function completeToldAuthentication(
  deps: AuthenticationFlowDeps,
  requestKey: string,
  reference: string,
  toldByItsAccount: (merchantId: string) => Promise<boolean>,
): Promise<AuthenticationEnd> {
  const authentication = await findAuthenticationByRequestKey(deps.db, requestKey);
  if (!authentication || authentication.processorReference !== reference) return { ended: false, authentication: null };
  if (!(await toldByItsAccount(authentication.merchantId))) {
    deps.logger.warn({ code: 'authentication_told_by_other_account' }, "another account's processor told of an authentication; nothing changed");
    return { ended: false, authentication: null };
  }
  return completeAuthentication(deps, authentication.id);
}

/**
 * The authentication ends without the consumer's bank saying yes: the bank page's "Fail authentication", the widget's
 * cancel, or AUTHENTICATION_TIMEOUT_S without an answer. A decline `authentication_failed` (it counts for card
 * testing; a link may be paid again), recorded once, guarded on the state it was found in; then the payment waiting at
 * the processor is reversed by its key (durably: `endWith`).
 */
export async function failAuthentication(
  deps: AuthenticationFlowDeps,
  id: string,
  from: readonly AuthenticationRow['state'][] = ['pending'],
): Promise<AuthenticationEnd> {
  const authentication = await findAuthentication(deps.db, id);
  if (!authentication || !from.includes(authentication.state)) return { ended: false, authentication };
  const processor = await processorOf(deps, authentication.merchantId);
  const declined: ProcessorResult = { outcome: 'declined', processor: processor.kind, code: 'authentication_failed' };
  return (await endWith(deps, processor, authentication, from, declined, 'reverse')).end;
}

/** Every authentication whose time is up (pending past its expiry, or completing a call nobody recorded) ends as failed. */
export async function expireAuthentications(deps: AuthenticationFlowDeps, now: Date): Promise<number> {
  const staleBefore = new Date(now.getTime() - 2 * deps.env.PROCESSOR_TIMEOUT_MS);
  let ended = 0;
  for (const authentication of await findExpiredAuthentications(deps.db, now, staleBefore, 100)) {
    if ((await failAuthentication(deps, authentication.id, ['pending', 'completing'])).ended) ended++;
  }
  return ended;
}

/** How `endWith` ended an authentication, and whether its transaction still waited and took the decision. */
interface Ending {
  end: AuthenticationEnd;
  decided: boolean;
}

/**
 * Records the decision on the authentication's payment, its end and its card attempt, in one transaction. When the
 * payment must be undone (`reverse`: an authentication that failed or was not answered; or an approval whose
 * transaction no longer waited for it), the payment's processor request (the same request key, done with its 202)
 * goes back in flight in that transaction, and is reversed at once after the commit: a reversal that does not
 * succeed stays in flight, and the processor request worker reverses it when its lease ends, until it does or sets it
 * aside as `needs_review` for an operator (docs/design/processor-requests.md).
 */
async function endWith(
  deps: AuthenticationFlowDeps,
  processor: PaymentProcessor,
  authentication: AuthenticationRow,
  from: readonly AuthenticationRow['state'][],
  result: ProcessorResult,
  payment: 'reverse' | 'keep',
): Promise<Ending> {
  const now = deps.clock.now();
  const ended = await deps.db.transaction(async (tx) => {
    const row = await endAuthenticationRow(tx, authentication.id, from, result.outcome === 'approved' ? 'authenticated' : 'failed', now);
    if (!row) return null;
    const decided: Outcome | null =
      row.sdkSessionId === null
        ? await decideAfterAuthentication(tx, row, result, now, deps.env)
        : await decideSessionAfterAuthentication(tx, row, result, now, deps.env);
    if (decided === null)
      deps.logger.warn({ code: 'authentication_orphaned', authenticationId: row.id }, 'the transaction no longer waited on this authentication');
    await settleAuthenticationAttempt(tx, row.id, result.outcome === 'declined');
    const undo = payment === 'reverse' || (result.outcome === 'approved' && decided === null);
    const reversal = undo
      ? await reopenForReversal(tx, {
          requestKey: row.requestKey,
          reference: row.processorReference,
          reason: `3-D Secure payment to reverse (authentication ${row.id})`,
          now,
          leaseUntil: new Date(now.getTime() + PROCESSOR_LEASE_MS),
        })
      : null;
    return { row, decided: decided !== null, undo, reversal };
  });
  if (!ended) return { end: { ended: false, authentication: await findAuthentication(deps.db, authentication.id) }, decided: false };
  if (ended.undo) await reverseNow(deps, processor, ended.row, ended.reversal);
  return { end: { ended: true, authentication: ended.row }, decided: ended.decided };
}

/**
 * The payment waiting on `authentication` reversed at the processor by its key (and its reference), once its end has
 * committed. Its processor request, back in flight (`reversal`), is moved to done when the processor answered; if it
 * did not, the request stays in flight under its lease for the worker, which reverses it again (the same key: never
 * a second reversal at the acquirer) until it succeeds or is set aside for an operator.
 */
async function reverseNow(
  deps: AuthenticationFlowDeps,
  processor: PaymentProcessor,
  authentication: AuthenticationRow,
  reversal: ProcessorRequestRow | null,
): Promise<void> {
  if (!reversal)
    deps.logger.error(
      { code: 'authentication_reversal_untracked', authenticationId: authentication.id, requestKey: authentication.requestKey },
      'no finished processor request holds this payment: its reversal is tried once, and the worker cannot retry it',
    );
  try {
    const found = await withinTimeout(processor.reverse(authentication.requestKey, authentication.processorReference), deps.env.PROCESSOR_TIMEOUT_MS);
    if (found) logNothingFound(deps.logger, found, { authenticationId: authentication.id });
    if (reversal) await markReversed(deps.db, reversal.id, reversal.attempts, deps.clock.now());
  } catch (error) {
    deps.logger.warn(
      { err: error, code: 'processor_reversal_deferred', authenticationId: authentication.id, processorRequestId: reversal?.id },
      'reversal of a 3-D Secure payment not made now: its processor request stays in flight and the worker reverses it when its lease ends',
    );
  }
}
