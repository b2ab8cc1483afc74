import { SANDBOX_TEST_CARDS, type PaymentLinkState, type TerminalCurrent, type TerminalTapRequest } from '@svc/protocol';
import type { AnswerAfterCommit, MutationContext } from '../../mutations/mutation';
import type { Queryable, Tx } from '../../db/client';
import { NotFoundError } from '../../errors';
import type { Principal } from '../../auth/principal';
import { payLink } from '../hosted-page';
import { findLinkForConsumer } from '../hosted-page';
import { LINK_PAYABLE_STATUSES } from '../hosted-page';
import { toLinkState } from '../hosted-page';
import type { ServiceDeps } from '../../service-deps';
import { newestPayableLinkOfDevice } from '../stickers';
import { cancelTransaction } from '../transactions';
import { findTransactionRowForPrincipal } from '../transactions';

/**
 * The sandbox terminal simulator's actions (docs/integrating.md#sandbox), for its page and for headless tests. A device credential
 * acts on its own transactions only; a tap pays exactly as the hosted page does (`payLink`), a cancel moves Pending
 * to Cancelled as the merchant's cancel does.
 */

async function stateOfLink(db: Queryable, linkId: string, now: Date): Promise<PaymentLinkState> {
  const link = await findLinkForConsumer(db, linkId);
  if (!link) throw new NotFoundError('transaction');
  return toLinkState(link, now);
}

/**
 * What the terminal's screen shows: the device's newest transaction still waiting for a payment (Pending, or
 * Declined: the consumer may tap another card), or none.
 */
export async function terminalCurrent(db: Queryable, principal: Principal, now: Date): Promise<TerminalCurrent> {
  const linkId = principal.deviceId ? await newestPayableLinkOfDevice(db, principal.deviceId, now, LINK_PAYABLE_STATUSES) : null;
  return { transaction: linkId ? await stateOfLink(db, linkId, now) : null };
}

/** A test card (with a future expiry and a CVC, as a tap carries them) or a wallet, paid on one of the device's transactions. */
export async function tapOnTerminal(
  tx: Tx,
  deps: ServiceDeps,
  principal: Principal,
  body: TerminalTapRequest,
  context: MutationContext,
): Promise<AnswerAfterCommit> {
  const row = await findTransactionRowForPrincipal(tx, principal, body.transactionNumber);
  if (!row) throw new NotFoundError('transaction');
  if (body.method !== 'card') return payLink(tx, deps, row.linkId, { method: body.method }, context);
  const card = SANDBOX_TEST_CARDS.find((c) => c.number === body.cardNumber)!;
  const expYear = deps.clock.now().getUTCFullYear() + 3;
  // A tap has nobody to answer a bank's 3-D Secure: a card that asks for it is declined `authentication_failed`.
  return payLink(tx, deps, row.linkId, { method: 'card', card: { number: card.number, expMonth: 12, expYear, cvc: '123' } }, context, { threeDSecure: false });
}

/** The consumer presses Cancel on the terminal. */
export async function cancelOnTerminal(tx: Tx, deps: ServiceDeps, principal: Principal, transactionNumber: string): Promise<PaymentLinkState> {
  const cancelled = await cancelTransaction(tx, deps, principal, transactionNumber);
  const row = await findTransactionRowForPrincipal(tx, principal, cancelled.TransactionNumber);
  return stateOfLink(tx, row!.linkId, deps.clock.now());
}
