import type { Tx } from '../db/client';
import type { StoredAnswer, Success } from './stored-answer';

/** What a change may ask of the mutation around it (http/idempotency.ts runs it; the services see only this). */
export interface MutationContext {
  /** The key the answer is stored under (scoped as in idempotency_keys), or null without an Idempotency-Key. */
  idempotencyKey: string | null;
  /** When this request took the key (its row's created_at): what tells it from the same key taken again after it expired. */
  idempotencyKeyTakenAt: Date | null;
  requestId: string;
  /** Work that must wait for the change's writes to be committed (a release at the processor); dropped if they are not. */
  afterCommit(work: () => Promise<void>): void;
  /**
   * Writes the caller that runs the mutation wants made with the processor's decision on the payment the change asks
   * for, if it asks for one (payAfterCommit): in the transaction that records the decision, so they commit with it.
   */
  withDecision?: WithDecision;
}

/** Writes made in the transaction that records a payment's decision (modules/processor-requests), beside it. */
export interface WithDecision {
  /** In the recording's transaction, with the answer the decision gives; made again if the recording is (a lost connection). */
  write(tx: Tx, answer: StoredAnswer): Promise<void>;
  /** The recording that made `write` committed. */
  committed(): void;
}

/**
 * What a change returns when its answer is the outcome of a processor call: the change committed the intent (a
 * processor_requests row in flight), and `answer` calls the processor outside any transaction and records the outcome
 * in one of its own, which also fills in the answer under the Idempotency-Key (modules/processor-requests).
 */
export interface AnswerAfterCommit {
  answer: () => Promise<StoredAnswer>;
}

/**
 * A change run as one idempotent mutation: it answers a success, or an answer after its commit. A refusal is thrown
 * (an `ApiError`); one that must still commit what the change wrote is thrown as a `RefusalAfterChange`.
 */
export type Change = (tx: Tx, context: MutationContext) => Promise<Success | AnswerAfterCommit>;
