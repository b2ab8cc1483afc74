import { TEST_CARD, consumerPays, merchantClient, type Answer, type MerchantClient } from './merchant-client';

/**
 * The payment lifecycle (init → the consumer pays → status → capture) run by concurrent clients against a service
 * whose database fails over under them, as the failover test and the failover benchmark drive it. Every answer is
 * kept: what a client may see meanwhile is 2xx, or 503 with Retry-After.
 */
export interface Sequence {
  transactionNumber?: string;
  /** The consumer's payment was answered 200: its authorization must be kept. */
  paid: boolean;
  /** The capture was answered 200, with this payment: it must be kept, once. */
  capturedPaymentId?: string;
  /** When its init was sent, and answered 200. */
  initSentAt: number;
  initAnsweredAt?: number;
}

/** Each sequence authorizes 10 USD and captures this much of it. */
export const CAPTURE_AMOUNT = 500;

export class FailoverLoad {
  readonly sequences: Sequence[] = [];
  /** Every answer that was neither 2xx nor 503 with Retry-After, and every request that got no answer. */
  readonly unexpected: string[] = [];
  /** Answers 503 with Retry-After, as the clients saw them. */
  unavailable = 0;
  #stopping = false;
  readonly #client: MerchantClient;
  readonly #app: { request(path: string, init?: { method?: string; headers?: Record<string, string>; body?: unknown }): Promise<Response> };
  #clients: Promise<void>[] = [];

  constructor(baseUrl: string, apiKey: string) {
    this.#app = {
      request: (path, init = {}) =>
        fetch(`${baseUrl}${path}`, {
          method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
          headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        }),
    };
    this.#client = merchantClient(this.#app, { apiKey });
  }

  /** Starts `clients` clients, each running sequences back to back until `stop()`. */
  start(clients: number): void {
    this.#clients = Array.from({ length: clients }, async (_, c) => {
      for (let n = 0; !this.#stopping; n++) await this.#sequence(`client${c}-${n}`);
    });
  }

  /** Lets each client finish its sequence, then resolves. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.all(this.#clients);
  }

  /** Sequences whose capture was answered 200 and whose init was sent after `since` (performance.now()). */
  capturedSince(since: number): number {
    return this.sequences.filter((s) => s.capturedPaymentId && s.initSentAt >= since).length;
  }

  /** When the first init sent after `since` was answered 200: the service writes again. */
  firstWriteAfter(since: number): number | undefined {
    const answered = this.sequences.filter((s) => s.initSentAt >= since && s.initAnsweredAt !== undefined).map((s) => s.initAnsweredAt!);
    return answered.length > 0 ? Math.min(...answered) : undefined;
  }

  /**
   * One lifecycle. The init and the status are retried while the answer is 503 (the init under its key: a retry
   * replays it). The consumer's payment and the capture are asked once: after a 503 their outcome may be in flight,
   * for the processor request worker to settle (docs/design/processor-requests.md), so the sequence ends there.
   */
  async #sequence(name: string): Promise<void> {
    const sequence: Sequence = { paid: false, initSentAt: performance.now() };
    this.sequences.push(sequence);
    const created = await this.#retried(() =>
      this.#client.init({ amount: 10, currency: 'USD', methodType: 'authorize' }, { 'idempotency-key': `${name}-init` }),
    );
    if (!created) return;
    sequence.initAnsweredAt = performance.now();
    sequence.transactionNumber = created.body.TransactionNumber;
    const paid = await this.#observed(() => consumerPays(this.#app, created.body, TEST_CARD));
    if (paid?.status !== 200) return;
    sequence.paid = true;
    const read = await this.#retried(() => this.#client.get(created.body.TransactionNumber));
    const token = read?.body.paymentDetails?.token;
    if (!token) return;
    const captured = await this.#observed(() => this.#client.pay({ token, amount: CAPTURE_AMOUNT }, { 'idempotency-key': `${name}-capture` }));
    if (captured?.status === 200) sequence.capturedPaymentId = captured.body.payment.paymentId;
  }

  async #retried<T>(call: () => Promise<Answer<T>>): Promise<Answer<T> | null> {
    while (!this.#stopping) {
      const answer = await this.#observed(call);
      if (answer?.status === 200) return answer;
      if (answer?.status !== 503) return null;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return null;
  }

  async #observed<T>(call: () => Promise<Answer<T>>): Promise<Answer<T> | null> {
    const answer = await call().catch((error: Error) => error);
    if (answer instanceof Error) {
      this.unexpected.push(`no answer: ${answer.message}`);
      return null;
    }
    if (answer.status === 503 && answer.headers.get('retry-after') !== null) this.unavailable++;
    else if (answer.status < 200 || answer.status > 299) this.unexpected.push(`${answer.status} ${JSON.stringify(answer.body)}`);
    return answer;
  }
}
