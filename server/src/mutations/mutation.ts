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
