/**
 * The wire types the package publishes, by name. In the source they are protocol's own (inferred from its zod
 * schemas); the build replaces this module's declarations with types generated from the service's OpenAPI document
 * (the same schemas, without zod), so the published `.d.ts` needs nothing else. Both export these names.
 */
import type { z } from 'zod';
import type { ENDPOINT, ProblemDetails } from '@svc/protocol';
import type { AuditLogParams, ListEventsParams, ListTransactionsParams } from './list-queries';

export type {
  AuthorizeRequest,
  CallbackDelivery,
  CallbackLog,
  ClockState as Clock,
  CommitRequest,
  CommitResponse,
  InitTransactionRequest,
  PayRequest,
  PayResponse,
  ProblemDetails,
  ProblemFieldError,
  Receipt,
  RedeliverResponse,
  ServiceEvent as WebhookEvent,
  WebhookEndpoint,
  SandboxMessages,
  SaveReceiptResponse,
  Transaction,
  VoidRequest,
  WsClientMessage,
  WsServerMessage,
} from '@svc/protocol';

/** Every error `code` the service answers with. */
export type ApiErrorCode = ProblemDetails['code'];

type Table = typeof ENDPOINT;
/** An endpoint a merchant's key may call whose answer is JSON: the client has a method for each. */
export type MerchantOperationId = {
  [K in keyof Table]: [Extract<Table[K]['auth'][number], 'merchant' | 'merchant_key'>] extends [never]
    ? never
    : Table[K]['response'] extends { contentType: string }
      ? never
      : K;
}[keyof Table];

type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? { [N in Name]: string } & PathParams<Rest> : unknown;
type Flat<T> = { [K in keyof T]: T[K] };

/** The listings' queries as the client takes them (numbers, dates, lists), by operation. */
export type ClientQueries = { listTransactions: ListTransactionsParams; listAuditLog: AuditLogParams; listEvents: ListEventsParams };

/** Per operation: its path parameters, its query (undefined when it takes none), its request body (likewise) and its answer. */
export type MerchantOperations = {
  [K in MerchantOperationId]: {
    params: Flat<PathParams<Table[K]['path']>>;
    query: K extends keyof ClientQueries ? ClientQueries[K] : Table[K] extends { query: infer Q extends z.ZodType } ? z.input<Q> : undefined;
    body: Table[K] extends { request: infer R extends z.ZodType } ? z.input<R> : undefined;
    result: z.output<Table[K]['response']['schema']>;
  };
};
