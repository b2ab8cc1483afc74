import { randomBytes } from '../../random-bytes';
import type { Tx } from '../../db/client';
import type { MutationContext } from '../../mutations/mutation';
import {
  insertProcessorRequest,
  insertProcessorRequestWith,
  type ColumnsFromGuardedWrite,
  type GuardedWrite,
  type ProcessorRequestKind,
  type ProcessorRequestRow,
} from './processor-requests.queries';

/**
 * How long a request's call may stay unanswered before a worker takes it over (and calls again with the same key, or
 * reverses a payment). Above PROCESSOR_TIMEOUT_MS (at most 50 s), so a request's own call has ended by then.
 */
export const PROCESSOR_LEASE_MS = 60_000;

/** What a new request asks of the processor. */
export interface NewProcessorRequest {
  operation: ProcessorRequestKind;
  transactionId: string | null;
  merchantId: string;
  processorReference: string | null;
  amountCents: number;
  currency: string;
  idempotencyKey?: string | null;
  /** When the request took its Idempotency-Key (MutationContext), kept in the details to fill in or free that key and no other. */
  idempotencyKeyTakenAt?: Date | null;
  details?: Record<string, unknown>;
}

/** A new request as its guarded write completes it: the write names the transaction, and may give the columns it found. */
export type NewRequestWithWrite = Omit<NewProcessorRequest, 'transactionId' | ColumnsFromGuardedWrite> &
  Partial<Pick<NewProcessorRequest, ColumnsFromGuardedWrite>>;

/** What a service asks for, besides the operation's kind and what its mutation gives (`fromMutation`): the whole request. */
export type Asked = Omit<NewProcessorRequest, 'operation' | 'idempotencyKey' | 'idempotencyKeyTakenAt'>;

/** What a service asks for with a guarded write: what the write does not give. */
export type AskedWithWrite = Omit<NewRequestWithWrite, 'operation' | 'idempotencyKey' | 'idempotencyKeyTakenAt'>;

/**
 * Commits the intent: the request for `kind`, in flight under a lease from `now`, in the transaction of the change
 * that asks, with its Idempotency-Key and request id (`fromMutation`). With the guarded write it belongs to (a
 * reservation, a lock, a link's in-flight mark), the write and the request go in as one statement, the write's CTE
 * naming the transaction: null when the write's guard refused, and nothing is written.
 */
export function commitIntent(
  tx: Tx,
  context: MutationContext,
  kind: ProcessorRequestKind | undefined,
  asked: AskedWithWrite & { transactionId?: string | null },
  guarded: GuardedWrite | undefined,
  now: Date,
): Promise<ProcessorRequestRow | null> {
  const request = { ...asked, ...(kind ? { operation: kind } : {}), ...fromMutation(context, asked.details) };
  return guarded ? insertProcessorRequestWith(tx, guarded, newRow({ ...request, transactionId: null }, now)) : queueProcessorRequest(tx, whole(request), now);
}

/** What every new request takes from the mutation that asks for it: its Idempotency-Key, and the HTTP request's id in the details. */
export function fromMutation(
  context: Pick<MutationContext, 'idempotencyKey' | 'idempotencyKeyTakenAt' | 'requestId'>,
  details: Record<string, unknown> = {},
): Pick<NewProcessorRequest, 'idempotencyKey' | 'idempotencyKeyTakenAt' | 'details'> {
  return {
    idempotencyKey: context.idempotencyKey,
    idempotencyKeyTakenAt: context.idempotencyKeyTakenAt,
    details: { ...details, requestId: context.requestId },
  };
}

/** A new request, in flight under a lease from `now`; insert it in the transaction of the change it belongs to. */
export function queueProcessorRequest(tx: Tx, request: NewProcessorRequest, now: Date): Promise<ProcessorRequestRow> {
  return insertProcessorRequest(tx, newRow(request, now));
}

function newRow<T extends Omit<NewProcessorRequest, ColumnsFromGuardedWrite>>({ idempotencyKeyTakenAt, ...request }: T, now: Date) {
  const keyTakenAt = request.idempotencyKey ? idempotencyKeyTakenAt?.toISOString() : undefined;
  return {
    ...request,
    idempotencyKey: request.idempotencyKey ?? null,
    details: { ...request.details, ...(keyTakenAt ? { keyTakenAt } : {}) },
    requestKey: `prq_${randomBytes(16).toString('hex')}`,
    leaseExpiresAt: new Date(now.getTime() + PROCESSOR_LEASE_MS),
    createdAt: now,
  };
}

/** Without a guarded write, the service names all that is asked (the overloads of the asks see to it). */
function whole(request: Omit<NewRequestWithWrite, 'operation'> & Partial<Pick<NewProcessorRequest, 'operation' | 'transactionId'>>): NewProcessorRequest {
  const { operation, merchantId, amountCents, currency } = request;
  if (operation === undefined || merchantId === undefined || amountCents === undefined || currency === undefined) {
    throw new Error('a request without a guarded write names its operation, merchant, amount and currency');
  }
  return {
    ...request,
    operation,
    merchantId,
    amountCents,
    currency,
    processorReference: request.processorReference ?? null,
    transactionId: request.transactionId ?? null,
  };
}
