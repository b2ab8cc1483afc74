import { Status } from '@svc/protocol';
import type { ParsedInitTransactionRequest, Transaction } from '@svc/protocol';
import type { Tx } from '../../db/client';
import { ApiError, NotFoundError, ValidationError } from '../../errors';
import type { Principal } from '../../auth/principal';
import { callbackDefaultsFor, findCredentialByHash, findMerchant, hashCredential } from '../merchants';
import type { ServiceDeps } from '../../service-deps';
import { assertCallbackUrlAllowed } from '../callbacks';
import { newLinkId, newTransactionNumber } from './identifiers';
import { resolveInitAmounts } from './init-amounts';
import { sendLinkMessages } from './link-messages';
import { paymentPageUrl } from './transaction-object';
import { recordChange } from './transaction-events';
import { cancelPending, findTransactionRowForPrincipal, insertTransactionView, setSmsState, type TransactionView } from './transactions.queries';

/** `POST /transactions/init`: a new Pending transaction, its creation event, and the link messages it asks for. */
export async function initTransaction(tx: Tx, deps: ServiceDeps, principal: Principal, body: ParsedInitTransactionRequest): Promise<Transaction> {
  const now = deps.clock.now();
  const methodType = body.methodType ?? 'sale';
  const amounts = resolveInitAmounts(body, methodType);
  const terminal = await resolveTerminal(tx, principal, body.deviceId);
  const callback = await callbackOf(tx, deps, principal.merchantId, terminal.branchId, body);
  assertMessagesSendable(deps.messages, body);

  let timeoutAt: Date | null = null;
  if (body.timeOut !== undefined) timeoutAt = new Date(now.getTime() + body.timeOut * 1000);
  if (body.timeoutDate !== undefined) {
    timeoutAt = new Date(body.timeoutDate);
    if (timeoutAt <= now) throw new ValidationError([{ path: 'timeoutDate', message: `must be in the future (the service time is ${now.toISOString()})` }]);
  }

  const created = await insertTransactionView(tx, {
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
 * Where the transaction's callbacks go: the init's own callbackURL (and callbackMethod, POST by default); without
 * one, the default of its branch, else its merchant's (docs/integrating.md#default-callback), with the init's
 * callbackMethod if it gives one. Either passes the address checks; none at all is no callback.
 */
async function callbackOf(
  tx: Tx,
  deps: ServiceDeps,
  merchantId: string,
  branchId: string | null,
  body: Pick<ParsedInitTransactionRequest, 'callbackURL' | 'callbackMethod'>,
): Promise<{ url: string | null; method: 'GET' | 'POST' }> {
  if (body.callbackURL) {
    assertCallbackUrlAllowed(body.callbackURL, deps.env);
    return { url: body.callbackURL, method: body.callbackMethod ?? 'POST' };
  }
  const fallback = await callbackDefaultsFor(tx, merchantId, branchId);
  if (!fallback) return { url: null, method: body.callbackMethod ?? 'POST' };
  assertCallbackUrlAllowed(fallback.url, deps.env, `The ${fallback.owner}'s default callbackURL (merchant settings)`);
  return { url: fallback.url, method: body.callbackMethod ?? fallback.method };
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
