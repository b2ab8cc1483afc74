import type { Tx } from '../../db/client';
import type { Rider } from '../../db/rider';
import type { Env } from '../../env';
import { storedAnswerOf, type Outcome, type StoredAnswer } from '../../mutations/stored-answer';
import type { PaymentProcessor, PaymentResult, Pending, ProcessorResult, RefundResult } from '../../processor/processor';
import { doneRider, type DoneMark, type HeldMethodKind, type PaymentKind, type ProcessorRequestRow } from './processor-requests.queries';

/**
 * How an operation that calls the processor is declared: once, as one object, beside the queries it writes with.
 * Its intent is written by the service that asks for it (a guarded write and the request, committed together:
 * `askProcessor`, `payAfterCommit`); the call and the recording of its outcome, with its event, are declared here, so
 * the request that asked and the worker that finishes a request left in flight run the same code. Every kind of
 * processor request has its declaration in the wiring's registry (`ProcessorOperations`, server/src/processor-operations.ts).
 */

/** The outcome of a call on a method already held: a capture's, a re-authorization's or a refund's result, or that a release was made. */
export type HeldMethodOutcome = ProcessorResult | RefundResult | { outcome: 'released' };

/** What the processor said to a call on a method already held: its outcome, or that the outcome comes later (`Pending`, by webhook). */
export type HeldMethodAnswer = HeldMethodOutcome | Pending;

/** A request for a call on a method already held: it names its transaction and the method (processor_requests_redoable_has_method). */
export type HeldMethodRequest = ProcessorRequestRow & { transactionId: string; processorReference: string };

/** What a recording has besides its database transaction. */
export interface Recording {
  now: Date;
  env: Env;
  /** The processor the request was made at: its kind and what it can do (a single-capture processor's capture ends the hold). */
  processor: Pick<PaymentProcessor, 'kind' | 'capabilities'>;
  /** Releases the recording queued (a hold given back): called at the processor once the recording commits. */
  releases: ProcessorRequestRow[];
  /** The request's move to done, which the recording's event statement may make (recordChange's `finishing`). */
  done: PendingDone;
}

/**
 * A call on a method the service already holds (a capture, a commit's capture, a re-authorization, a release, a refund): the
 * processor answers a repeated request key as it answered the first, so anyone holding the request (the request
 * that asked, a worker that took it over) may make the call again, and any attempt may record what it hears.
 */
export interface HeldMethodOperation {
  kind: HeldMethodKind;
  call(processor: PaymentProcessor, request: HeldMethodRequest): Promise<HeldMethodAnswer>;
  /**
   * Records the processor's answer in the recording's transaction (the books, the event, the callback) and gives the
   * outcome the asker is answered with; null for a release, whose asker was answered when it was queued.
   */
  record(tx: Tx, request: HeldMethodRequest, answer: HeldMethodOutcome, recording: Recording): Promise<Outcome | null>;
  /**
   * The answer while the outcome is on its way (the processor answered `Pending`): the request stays in flight, what it
   * reserved stays reserved, and the asker is answered this (202, the payment or refund `pending`), not kept under its
   * Idempotency-Key, which gets the outcome once the webhook records it. Null (a release) or absent: nothing to answer.
   */
  pending?(tx: Tx, request: HeldMethodRequest, recording: Recording): Promise<Outcome | null>;
}

/**
 * A payment, which only the request that asks can make: the card lives only in its memory (`input`), or its outcome
 * creates the record. Nobody else ever calls or records it: a payment not answered, or whose decision cannot be
 * recorded, is reversed at the processor by its key (by its request, or by the worker), and `undo` undoes what its
 * intent committed.
 */
export interface PaymentOperation<Input> {
  /** The request's kind; a link payment's comes from its guarded write (sale or authorize, the link's method). */
  kind?: PaymentKind;
  call(processor: PaymentProcessor, request: ProcessorRequestRow, input: Input): Promise<PaymentResult>;
  /**
   * Records the processor's decision (or its `requires_action`: the payment waits for the consumer's bank) in the
   * transaction that moves the request to done; the outcome is the request's answer.
   */
  record(tx: Tx, request: ProcessorRequestRow, result: PaymentResult, input: Input, recording: Recording): Promise<Outcome>;
  undo?: UndoPayment;
}

/** Undoes what a payment's request committed before its call (a link's in-flight mark), once the payment is reversed. */
export type UndoPayment = (tx: Tx, request: ProcessorRequestRow) => Promise<void>;

/**
 * Every kind of processor request and what finishes it: a call on a method held, made again and recorded; a payment,
 * reversed, with what undoes its intent (the worker never has its input).
 */
export type ProcessorOperations = { [K in HeldMethodKind]: HeldMethodOperation & { kind: K } } & {
  [K in PaymentKind]: Pick<PaymentOperation<never>, 'undo'>;
};

/**
 * A request's move to done, made once in its recording's transaction: as a rider of the recording's event statement,
 * one statement fewer (recordChange's `finishing` asks for it with the outcome, whose answer is kept here), or else by
 * the runner after the recording, last. Either way it is guarded (markDone): a recording that lost to another has its
 * transaction rolled back (AlreadyRecordedError).
 */
export class PendingDone {
  #kept: { outcome: Outcome; answer: StoredAnswer } | null = null;

  constructor(
    readonly mark: DoneMark,
    /** The id of the HTTP request that asked, for the problem body of a refusal. */
    private readonly requestId: string,
  ) {}

  /** The answer `outcome` keeps, rendered once, for the statement that makes the move to done with it. */
  private keep(outcome: Outcome): StoredAnswer {
    if (this.#kept) throw new Error(`processor request ${this.mark.id} was moved to done twice`);
    this.#kept = { outcome, answer: storedAnswerOf(outcome, this.requestId) };
    return this.#kept.answer;
  }

  /** The move to done with the answer `outcome` keeps, as a rider of the event statement that records it. */
  riderFor(outcome: Outcome): Rider {
    return doneRider(this.mark, this.keep(outcome));
  }

  /** What was kept, or null when nothing has made the move yet. */
  get kept(): { outcome: Outcome; answer: StoredAnswer } | null {
    return this.#kept;
  }
}
