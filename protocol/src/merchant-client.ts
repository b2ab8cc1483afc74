import type { CallbackLog, RedeliverResponse } from './callbacks';
import type { InitTransactionRequest } from './init-request';
import type { AuthorizeRequest, ClockState, PayRequest, PayResponse, SandboxMessages, VoidRequest } from './lifecycle-requests';
import { ProblemDetailsSchema, type ProblemDetails } from './problem';
import type { CommitRequest, CommitResponse } from './sdk';
import type { Transaction } from './transaction';

/** A non-2xx answer of the service: its problem details, with the stable `code` to switch on. */
export class ServiceApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(readonly problem: ProblemDetails | null, status: number, text: string) {
    super(problem ? `${problem.code}: ${problem.detail}` : `HTTP ${status}: ${text.slice(0, 200)}`);
    this.name = 'ServiceApiError';
    this.status = status;
    this.code = problem?.code ?? 'http_error';
  }
}

export interface MerchantClientOptions {
  /** The service origin, e.g. http://localhost:8080 */
  baseUrl: string;
  /** A merchant (sk_) or branch (bk_) API key. Keep it on the server. */
  apiKey: string;
  fetch?: typeof fetch;
}

export interface RequestOptions {
  idempotencyKey?: string;
}

/**
 * A small typed client for a merchant's backend. Every method resolves with the parsed body or rejects with a
 * ServiceApiError carrying the problem details.
 */
export function createMerchantClient({ baseUrl, apiKey, fetch: fetchImpl = fetch }: MerchantClientOptions) {
  const root = baseUrl.replace(/\/+$/, '');
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const res = await fetchImpl(`${root}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    if (!res.ok) {
      let problem: ProblemDetails | null = null;
      try {
        const parsed = ProblemDetailsSchema.safeParse(JSON.parse(text));
        problem = parsed.success ? parsed.data : null;
      } catch {
        problem = null;
      }
      throw new ServiceApiError(problem, res.status, text);
    }
    return JSON.parse(text) as T;
  }
  const number = (n: string) => encodeURIComponent(n);
  return {
    init: (body: InitTransactionRequest, o?: RequestOptions) => call<Transaction>('POST', '/transactions/init', body, o),
    get: (transactionNumber: string) => call<Transaction>('GET', `/transactions/${number(transactionNumber)}`),
    cancel: (transactionNumber: string, o?: RequestOptions) => call<Transaction>('POST', `/transactions/${number(transactionNumber)}/cancel`, undefined, o),
    pay: (body: PayRequest, o?: RequestOptions) => call<PayResponse>('POST', '/transactions/pay', body, o),
    void: (body: VoidRequest, o?: RequestOptions) => call<Transaction>('POST', '/transactions/void', body, o),
    authorize: (body: AuthorizeRequest, o?: RequestOptions) => call<Transaction>('POST', '/transactions/authorize', body, o),
    closeAuth: (transactionNumber: string, o?: RequestOptions) => call<Transaction>('POST', `/transactions/${number(transactionNumber)}/closeAuth`, undefined, o),
    commit: (transactionNumber: string, body: CommitRequest, o?: RequestOptions) => call<CommitResponse>('POST', `/transactions/${number(transactionNumber)}/commit`, body, o),
    callbacks: (transactionNumber: string) => call<CallbackLog>('GET', `/transactions/${number(transactionNumber)}/callbacks`),
    advanceSandboxClock: (seconds: number) => call<ClockState>('POST', '/sandbox/clock/advance', { seconds }),
    redeliver: (deliveryId: string, o?: RequestOptions) => call<RedeliverResponse>('POST', `/callbacks/${encodeURIComponent(deliveryId)}/redeliver`, undefined, o),
    sandboxClock: () => call<ClockState>('GET', '/sandbox/clock'),
    sandboxMessages: () => call<SandboxMessages>('GET', '/sandbox/messages'),
  };
}
export type MerchantClient = ReturnType<typeof createMerchantClient>;
