import { MERCHANT_ROUTES, type MerchantRoute } from './endpoint-table';
import { errorFromAnswer } from './errors';
import { pageList, type Page, type PageList } from './page-list';
import { queryString } from './query-string';
import type { MerchantOperationId, MerchantOperations } from './wire';

export interface RequestOptions {
  /** Makes a retry of this call safe (docs: idempotency). Mutating calls get a new random one when none is given. */
  idempotencyKey?: string;
  /** Ends the call early (its retries too). */
  signal?: AbortSignal;
}

export interface MerchantClientOptions {
  /** The service's origin, e.g. `https://pay.example.com`. */
  baseUrl: string;
  /** A merchant (`sk_…`) or branch (`bk_…`) API key. It never leaves your backend. */
  apiKey: string;
  /** How often a call answered 503 (the service's database is unavailable) is tried again, waiting `Retry-After` each time. Default 2. */
  maxRetries?: number;
  /** The longest wait between two tries, in seconds, whatever `Retry-After` says. Default 30. */
  maxRetryDelayS?: number;
  /** Another fetch (a proxy's, a test's). Default: the global fetch. */
  fetch?: typeof fetch;
}

type Operation<K extends MerchantOperationId> = MerchantOperations[K];
type ParamsArgument<K extends MerchantOperationId> = keyof Operation<K>['params'] extends never ? [] : [params: Operation<K>['params']];
type QueryArgument<K extends MerchantOperationId> = [Operation<K>['query']] extends [undefined] ? [] : [query?: Operation<K>['query']];
type BodyArgument<K extends MerchantOperationId> = [Operation<K>['body']] extends [undefined]
  ? []
  : object extends Operation<K>['body']
    ? [body?: Operation<K>['body']]
    : [body: Operation<K>['body']];

/** The listings that answer a page (`{ data, hasMore, nextCursor }`): their calls give a PageList. */
const PAGED = ['listTransactions', 'listAuditLog', 'listEvents'] as const;
type PagedOperationId = (typeof PAGED)[number];
type Answer<K extends MerchantOperationId> = K extends PagedOperationId ? PageList<Operation<K>['result']['data'][number]> : Promise<Operation<K>['result']>;
type Method<K extends MerchantOperationId> = (...args: [...ParamsArgument<K>, ...QueryArgument<K>, ...BodyArgument<K>, options?: RequestOptions]) => Answer<K>;

/**
 * One method per merchant endpoint, named by its operation id (`initTransaction`, `getTransaction`, `pay`, `void`…):
 * the path parameters first (`{ transactionNumber }`), then the query (a listing's filters), then the body, then the
 * options. Each resolves with the parsed answer or rejects with an `SvcApiError`; a listing's answer is also iterated
 * with `for await`, over every page. The listings are also where stripe-node's habit looks for them:
 * `transactions.list(query)`, `auditLog.list(query)` and `events.list(query)`.
 */
export type MerchantClient = { [K in MerchantOperationId]: Method<K> } & {
  transactions: { list: Method<'listTransactions'> };
  auditLog: { list: Method<'listAuditLog'> };
  events: { list: Method<'listEvents'> };
};

const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RETRY_DELAY_S = 30;
/** The wait when a 503 names none. */
const DEFAULT_RETRY_DELAY_S = 1;

function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_slot, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '') throw new TypeError(`the path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
}

function wait(seconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, seconds * 1000);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The typed client of a merchant's backend: every endpoint of the service's endpoint table a merchant's key may call. */
export function createMerchantClient(options: MerchantClientOptions): MerchantClient {
  const root = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxDelayS = options.maxRetryDelayS ?? DEFAULT_MAX_RETRY_DELAY_S;

  async function call(route: MerchantRoute, args: unknown[]): Promise<unknown> {
    let index = 0;
    const params = (route.path.includes('{') ? args[index++] : {}) as Record<string, string>;
    const query = route.hasQuery ? (args[index++] as Record<string, unknown> | undefined) : undefined;
    const body = route.hasBody ? args[index++] : undefined;
    const request = (args[index] ?? {}) as RequestOptions;
    const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    // One key for every try of this call: a try that did run is answered from the service's record, not run twice.
    if (route.idempotent) headers['idempotency-key'] = request.idempotencyKey ?? crypto.randomUUID();
    const init: RequestInit = { method: route.method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) };
    if (request.signal) init.signal = request.signal;
    const url = `${root}${fillPath(route.path, params)}${queryString(query)}`;
    // A GET changes nothing and every POST runs once under its key, so a 503 may be tried again.
    for (let attempt = 0; ; attempt += 1) {
      const response = await fetchImpl(url, init);
      const text = await response.text();
      if (response.ok) return text === '' ? null : JSON.parse(text);
      const error = errorFromAnswer(response.status, response.headers, text);
      if (response.status !== 503 || attempt >= maxRetries) throw error;
      await wait(Math.min(error.retryAfterS ?? DEFAULT_RETRY_DELAY_S, maxDelayS), request.signal);
    }
  }

  const client: Record<string, unknown> = {};
  for (const [operationId, route] of Object.entries(MERCHANT_ROUTES) as [string, MerchantRoute][]) {
    client[operationId] = (PAGED as readonly string[]).includes(operationId)
      ? (query: Record<string, unknown> = {}, options?: RequestOptions) => pageList((page) => call(route, [page, options]) as Promise<Page<unknown>>, query)
      : (...args: unknown[]) => call(route, args);
  }
  client.transactions = { list: client.listTransactions };
  client.auditLog = { list: client.listAuditLog };
  client.events = { list: client.listEvents };
  return client as MerchantClient;
}
