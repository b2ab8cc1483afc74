import { processorOf } from '../../processor/processor-registry';
import { Status } from '@svc/protocol';
import type { ParsedInitTransactionRequest, Transaction } from '@svc/protocol';
import type { Tx } from '../../db/client';
import { ApiError, NotFoundError, ValidationError } from '../../errors';
import type { Principal } from '../../auth/principal';
import { findMerchant } from '../merchants';
import { callbackDefaultsFor } from '../merchant-settings';
import type { ServiceDeps } from '../../service-deps';
import { assertCallbackUrlAllowed } from '../callbacks';
import { resolveInitAmounts } from './init-amounts';
import { sendLinkMessages } from './link-messages';
import { paymentPageUrl } from './transaction-object';
import { recordChange } from './transaction-events';
import {
  cancelPending,
  findTransactionRowForPrincipal,
  insertInitTransactionView,
  setSmsState,
  type TransactionRow,
  type TransactionView,
} from './transactions.queries';
import { findCredentialByHash } from '../../auth/credentials.queries';
import { hashCredential } from '../../auth/credential-hash';
import { newLinkId, newTransactionNumber } from '../../ids';

/** `POST /transactions/init`: a new Pending transaction, its creation event, and the link messages it asks for. */
export async function initTransaction(tx: Tx, deps: ServiceDeps, principal: Principal, body: ParsedInitTransactionRequest): Promise<Transaction> {
  const now = deps.clock.now();
  const methodType = body.methodType ?? 'sale';
  const amounts = resolveInitAmounts(body, methodType);
  const terminal = await resolveTerminal(tx, principal, body.deviceId);
  const callback = ownCallbackOf(deps, body);
  assertMessagesSendable(deps.messages, body);

  let timeoutAt: Date | null = null;
  if (body.timeOut !== undefined) timeoutAt = new Date(now.getTime() + body.timeOut * 1000);
  if (body.timeoutDate !== undefined) {
    timeoutAt = new Date(body.timeoutDate);
    if (timeoutAt <= now) throw new ValidationError([{ path: 'timeoutDate', message: `must be in the future (the service time is ${now.toISOString()})` }]);
  }

  const created = await insertInitTransactionView(tx, {
    transactionNumber: newTransactionNumber(),
    merchantId: principal.merchantId,
    branchId: terminal.branchId,
    deviceId: terminal.deviceId,
    methodType,
    status: Status.Pending,
    currency: body.currency,
    amountCents: amounts.amountCents,
    products: amounts.products,
    productSumMismatch: amounts.productSumMismatch,
    pos: body.pos ?? null,
    posData: body.posData ?? null,
    phone: body.phone ?? null,
    email: body.email ?? null,
    language: body.language ?? null,
    // A processor without installments offers none: the link's page then shows no number of payments.
    maxInstallments: (await processorOf(deps, principal.merchantId, tx)).capabilities.installments ? (body.maxInstallments ?? 1) : 1,
    smsState: 'Not requested',
    callbackUrl: callback.url,
    callbackMethod: callback.method,
    timeoutAt,
    linkId: newLinkId(),
    sequence: 1,
    createdAt: now,
    updatedAt: now,
  });
  const { row } = created;
  if (callback.url === null && row.callbackUrl !== null) await assertDefaultCallbackAllowed(tx, deps, row);
  let change: TransactionView | string = created;
  if (row.phone || row.email) {
    // Handed to the outbox before the creation is recorded, so the transaction is created with its SMS state: Sent
    // (the sandbox records it), or Pending until the message sender's provider accepts it (or every attempt failed).
    const merchant = await findMerchant(tx, row.merchantId);
    const facts = {
      businessName: merchant!.name,
      amountCents: row.amountCents,
      currency: row.currency,
      url: paymentPageUrl(deps.env.PUBLIC_BASE_URL, row.linkId),
      language: body.language ?? 'en',
    };
    const handedOver = await sendLinkMessages(tx, deps.messages, { row, facts, now });
    if (handedOver.sms !== undefined) {
      await setSmsState(tx, row.id, handedOver.sms === 'sent' ? 'Sent' : 'Pending');
      change = row.id; // the view is read again: the SMS state moved after the insert
    }
  }
  const { transaction } = await recordChange(tx, change, { at: now, baseUrl: deps.env.PUBLIC_BASE_URL, type: 'transaction.created' });
  return transaction;
}

/** An init asking for a link by SMS or e-mail on a channel this service cannot send is refused before anything is created. */
function assertMessagesSendable(messages: ServiceDeps['messages'], body: Pick<ParsedInitTransactionRequest, 'phone' | 'email'>): void {
  const asked: ('sms' | 'email')[] = [...(body.phone ? ['sms' as const] : []), ...(body.email ? ['email' as const] : [])];
  const missing = asked.filter((channel) => !messages.canSend(channel));
  if (missing.length === 0) return;
  const names = missing.map((channel) => (channel === 'sms' ? '`phone` (SMS)' : '`email` (e-mail)'));
  throw new ApiError(
    'messages_unavailable',
    `This service has no provider for ${names.join(' or ')}: nothing was created. Create the transaction without it and send the payment link yourself.`,
  );
}

/** `POST /transactions/:transactionNumber/cancel`: Pending → Cancelled, nothing else. */
export async function cancelTransaction(tx: Tx, deps: ServiceDeps, principal: Principal, transactionNumber: string): Promise<Transaction> {
  const now = deps.clock.now();
  const row = await findTransactionRowForPrincipal(tx, principal, transactionNumber);
  if (!row) throw new NotFoundError('transaction');
  const cancelled = await cancelPending(tx, row.id, now);
  if (!cancelled) {
    if (row.status === Status.Pending) {
      throw new ApiError('transaction_not_cancellable', 'The consumer is paying this transaction right now; read it again for the outcome.');
    }
    throw new ApiError(
      'transaction_not_cancellable',
      `Only a pending transaction (status ${Status.Pending}) can be cancelled; this one has status ${row.status}.`,
    );
  }
  return (await recordChange(tx, row.id, { at: now, baseUrl: deps.env.PUBLIC_BASE_URL })).transaction;
}

/**
 * The callback the init gives itself: its callbackURL, checked, with its callbackMethod (POST by default). Without a
 * URL, the insert takes the default of the transaction's branch, else its merchant's (docs/integrating.md#default-callback),
 * with the init's callbackMethod if it gives one (insertInitTransactionView); none at all is no callback.
 */
function ownCallbackOf(
  deps: ServiceDeps,
  body: Pick<ParsedInitTransactionRequest, 'callbackURL' | 'callbackMethod'>,
): { url: string | null; method: 'GET' | 'POST' | null } {
  if (!body.callbackURL) return { url: null, method: body.callbackMethod ?? null };
  assertCallbackUrlAllowed(body.callbackURL, deps.env);
  return { url: body.callbackURL, method: body.callbackMethod ?? 'POST' };
}

/**
 * A default callback the insert took passes the same address checks as an init's own (the settings may predate the
 * configuration): when it does not, the refusal rolls the insert back. Whose default it was is read only then.
 */
async function assertDefaultCallbackAllowed(tx: Tx, deps: ServiceDeps, row: Pick<TransactionRow, 'merchantId' | 'branchId' | 'callbackUrl'>): Promise<void> {
  const url = row.callbackUrl!;
  try {
    assertCallbackUrlAllowed(url, deps.env);
    return;
  } catch {
    // Refused: refused again below, naming whose default it is.
  }
  const owner = (await callbackDefaultsFor(tx, row.merchantId, row.branchId))?.owner ?? 'merchant';
  assertCallbackUrlAllowed(url, deps.env, `The ${owner}'s default callbackURL (merchant settings)`);
}

/**
 * Where the transaction goes: a device credential sends it to its own terminal; an API key may name a terminal
 * with `deviceId` (one of its own merchant's, and of its own branch for a branch key).
 */
async function resolveTerminal(tx: Tx, principal: Principal, deviceId: string | undefined): Promise<{ branchId: string | null; deviceId: string | null }> {
  if (principal.kind === 'device') return { branchId: principal.branchId, deviceId: principal.deviceId };
  if (deviceId === undefined) return { branchId: principal.branchId, deviceId: null };
  const device = await findCredentialByHash(tx, hashCredential(deviceId));
  const fits =
    device?.kind === 'device' && device.merchantId === principal.merchantId && (principal.kind !== 'branch_key' || device.branchId === principal.branchId);
  if (!device || !fits) throw new ValidationError([{ path: 'deviceId', message: 'is not a device of this merchant (or of this branch)' }]);
  return { branchId: device.branchId, deviceId: device.deviceId };
}
