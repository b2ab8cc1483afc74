import type { CallbackLog, RedeliverResponse } from './callbacks';
import type { Receipt, SaveReceiptResponse } from './channels';
import { endpointRequest } from './endpoint-path';
import type { InitTransactionRequest } from './init-request';
import type { MerchantSettings, UpdateMerchantSettingsRequest } from './merchant-settings';
import { listTransactionsSearch, type ListTransactionsParams, type TransactionPage } from './transaction-list';
import type { AuthorizeRequest, ClockState, PayRequest, PayResponse, RefundRequest, RefundResponse, SandboxMessages, VoidRequest } from './lifecycle-requests';
import { ProblemDetailsSchema, type ProblemDetails } from './problem';
import type { CommitRequest, CommitResponse } from './sdk';
import type { Transaction } from './transaction';

/** A non-2xx answer of the service: its problem details, with the stable `code` to switch on. */
export class ServiceApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(
    readonly problem: ProblemDetails | null,
    status: number,
    text: string,
  ) {
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
 * A small typed client of the repository's own merchant code (the demo merchant, the end-to-end fixtures). Every
 * method resolves with the parsed body or rejects with a ServiceApiError carrying the problem details. A merchant's
 * backend uses the published package instead, `@svc/node` (merchant-node/README.md): built JavaScript, a method for
 * every merchant endpoint, retries and typed errors.
 */
export function createMerchantClient({ baseUrl, apiKey, fetch: fetchImpl = fetch }: MerchantClientOptions) {
  const root = baseUrl.replace(/\/+$/, '');
  async function call<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const res = await fetchImpl(`${root}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    if (!res.ok) {
      let problem: ProblemDetails | null;
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
  const op = <T>(operationId: string, params: Record<string, string>, body?: unknown, o?: RequestOptions, search = '') => {
    const { method, path } = endpointRequest(operationId, params);
    return call<T>(method, `${path}${search}`, body, o);
  };
  return {
    init: (body: InitTransactionRequest, o?: RequestOptions) => op<Transaction>('initTransaction', {}, body, o),
    get: (transactionNumber: string) => op<Transaction>('getTransaction', { transactionNumber }),
    /** A page of transactions, newest first; pass its `nextCursor` as `startingAfter` for the next. */
    listTransactions: (params: ListTransactionsParams = {}) =>
      op<TransactionPage>('listTransactions', {}, undefined, undefined, listTransactionsSearch(params)),
    cancel: (transactionNumber: string, o?: RequestOptions) => op<Transaction>('cancelTransaction', { transactionNumber }, undefined, o),
    pay: (body: PayRequest, o?: RequestOptions) => op<PayResponse>('pay', {}, body, o),
    void: (body: VoidRequest, o?: RequestOptions) => op<Transaction>('void', {}, body, o),
    authorize: (body: AuthorizeRequest, o?: RequestOptions) => op<Transaction>('authorize', {}, body, o),
    closeAuth: (transactionNumber: string, o?: RequestOptions) => op<Transaction>('closeAuthorization', { transactionNumber }, undefined, o),
    /** Gives settled money back: `amount` cents, or (omitted) everything still refundable. */
    refund: (transactionNumber: string, body: RefundRequest = {}, o?: RequestOptions) =>
      op<RefundResponse>('refundTransaction', { transactionNumber }, body, o),
    commit: (transactionNumber: string, body: CommitRequest, o?: RequestOptions) => op<CommitResponse>('commit', { transactionNumber }, body, o),
    callbacks: (transactionNumber: string) => op<CallbackLog>('listCallbacks', { transactionNumber }),
    advanceSandboxClock: (seconds: number) => op<ClockState>('advanceSandboxClock', {}, { seconds }),
    redeliver: (deliveryId: string, o?: RequestOptions) => op<RedeliverResponse>('redeliverCallback', { deliveryId }, undefined, o),
    sandboxClock: () => op<ClockState>('getSandboxClock', {}),
    sandboxMessages: () => op<SandboxMessages>('listSandboxMessages', {}),
    saveReceipt: (transactionNumber: string, receipt: Record<string, unknown>, o?: RequestOptions) =>
      op<SaveReceiptResponse>('saveReceipt', { transactionNumber }, { receipt }, o),
    receipt: (transactionNumber: string) => op<Receipt>('getReceipt', { transactionNumber }),
    settings: () => op<MerchantSettings>('getMerchantSettings', {}),
    updateSettings: (body: UpdateMerchantSettingsRequest, o?: RequestOptions) => op<MerchantSettings>('updateMerchantSettings', {}, body, o),
  };
}
export type MerchantClient = ReturnType<typeof createMerchantClient>;
