import type { EndpointDescription } from '@svc/protocol';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import type { Principal } from '../auth/principal';
import type { Clock } from '../clock';
import type { Database } from '../db/client';
import type { CredentialKind } from '../db/schema';
import { authenticate, principalOf, type AuthenticateDeps } from './authenticate';
import type { Change } from '../mutations/mutation';
import { runMutation, sendMutation, type IdempotencyScope, type SentAnswer } from './idempotency';
import { parseInput } from './parse';
import { PATH_PARAMS } from './path-params';
import { requestIdOf } from './request-id';
import { noteRoutePattern } from './route-pattern';

/** The body a handler gets: the endpoint's request schema's output, or nothing when it takes none. */
type BodyOf<E> = E extends { request: infer S extends z.ZodType } ? z.output<S> : undefined;

/** The query a handler gets: the endpoint's query schema's output, or nothing when it declares none. */
type QueryOf<E> = E extends { query: infer S extends z.ZodType } ? z.output<S> : undefined;

/** `{a}/x/{b}` → `{ a: string; b: string }`: the parameters a path template names. */
type ParamsOf<P> = P extends `${string}{${infer Name}}${infer Rest}` ? { [K in Name]: string } & ParamsOf<Rest> : unknown;

/** Whose key space an idempotent request files its key in, when it is not the calling credential's. */
export type KeySpace = Pick<IdempotencyScope, 'merchantId' | 'caller' | 'sealWith'>;

/** What a handler is given: the request parsed as its endpoint declares it, and how to run a mutation. */
export interface EndpointCall<E extends EndpointDescription> {
  req: Request;
  res: Response;
  body: BodyOf<E>;
  /** The query string parsed with the endpoint's query schema (queryInput shows how its text is read). */
  query: QueryOf<E>;
  /** The path parameters, each checked by its schema in path-params.ts (a page's are left as sent). */
  params: ParamsOf<E['path']>;
  /** The authenticated caller: only on an endpoint a merchant or device credential calls. */
  principal(): Principal;
  requestId: string;
  /**
   * Runs `change` in one database transaction under the request's Idempotency-Key (when the endpoint takes one), in
   * the calling credential's key space or in `space`, and answers with its outcome (or the replayed one).
   */
  mutate(change: Change, space?: KeySpace): Promise<void>;
  /** `mutate` without the answer, for a handler that must do more before it answers. */
  run(change: Change, space?: KeySpace): Promise<SentAnswer>;
  send(answer: SentAnswer): void;
}

/** An endpoint of the protocol's table and the one handler that serves it. */
export interface EndpointRoute {
  endpoint: EndpointDescription;
  handle(call: EndpointCall<EndpointDescription>): Promise<void>;
  /** Middleware that runs before authentication and parsing (a per-address limit). */
  before: RequestHandler[];
  /** CORS for an endpoint browsers call from other origins: it also answers the path's preflight (OPTIONS). */
  cors?: RequestHandler;
}

/** Declares the handler of one endpoint; `before` runs ahead of authentication and parsing. */
export function route<E extends EndpointDescription>(
  endpoint: E,
  handle: (call: EndpointCall<E>) => Promise<void>,
  options: { before?: RequestHandler[]; cors?: RequestHandler } = {},
): EndpointRoute {
  return { endpoint, handle: handle as EndpointRoute['handle'], before: options.before ?? [], cors: options.cors };
}

export type EndpointRouterDeps = AuthenticateDeps & { db: Database; clock: Clock };

/** The credential kinds an endpoint's `auth` names; client IDs and sessions are checked by their handlers. */
function credentialKinds(endpoint: EndpointDescription): CredentialKind[] {
  const kinds: CredentialKind[] = [];
  if (endpoint.auth.includes('merchant')) kinds.push('merchant_key', 'branch_key');
  else if (endpoint.auth.includes('merchant_key')) kinds.push('merchant_key');
  if (endpoint.auth.includes('device')) kinds.push('device');
  return kinds;
}

/** `/transactions/{transactionNumber}` as Express writes it: `/transactions/:transactionNumber`. */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * A page or an image reads its own parameter: a bad link is not found (the page's 404 page, the image's 404
 * `not_found`), never a 400 a person or an `<img>` could do nothing with.
 */
function checksParams(endpoint: EndpointDescription): boolean {
  return endpoint.response.contentType === undefined;
}

/**
 * A router serving `routes`, each as its endpoint declares: method and path, who may call (authenticate), the path
 * parameters and the body parsed with the table's schemas (400 `validation_failed` otherwise), the Idempotency-Key
 * where the endpoint takes one. The operation ids it serves are listed on the router for the app's test.
 */
export function endpointRouter(deps: EndpointRouterDeps, routes: EndpointRoute[]): Router & { operationIds: string[] } {
  const router = Router() as Router & { operationIds: string[] };
  router.operationIds = routes.map((r) => r.endpoint.operationId);
  for (const { endpoint, handle, before, cors } of routes) {
    const kinds = credentialKinds(endpoint);
    const guards = kinds.length > 0 ? [authenticate(deps, { allow: kinds })] : [];
    const path = expressPath(endpoint.path);
    const pattern: RequestHandler = (_req, res, next) => {
      noteRoutePattern(res, endpoint.path);
      next();
    };
    if (cors) router.options(path, pattern, cors);
    router[endpoint.method](path, pattern, ...(cors ? [cors] : []), ...before, ...guards, async (req: Request, res: Response) => {
      const params = checksParams(endpoint) ? parsePathParams(req.params as Record<string, string>) : (req.params as Record<string, string>);
      const body = endpoint.request && endpoint.method !== 'get' ? parseInput(endpoint.request, req.body) : undefined;
      const query = endpoint.query ? parseInput(endpoint.query, queryInput(req.originalUrl)) : undefined;
      const requestId = requestIdOf(res);
      const run = (change: Change, space?: KeySpace) => {
        const key = endpoint.idempotent ? req.get('idempotency-key') : undefined;
        const owner: KeySpace = space ?? { merchantId: principalOf(res).merchantId, caller: { credentialId: principalOf(res).credentialId } };
        return runMutation(deps.db, deps.clock, { ...owner, key, request: req, requestId }, change);
      };
      const send = (answer: SentAnswer) => sendMutation(res, answer);
      await handle({
        req,
        res,
        body: body as never,
        query: query as never,
        params: params as never,
        principal: () => principalOf(res),
        requestId,
        run,
        send,
        mutate: async (change, space) => send(await run(change, space)),
      });
    });
  }
  return router;
}

/**
 * The query string as a query schema reads it: each parameter's text, a list when it is repeated, and
 * `name[key]=value` as `name: { key: value }` (OpenAPI's deepObject style). Read from the URL itself, so it does not
 * depend on the app's query parser.
 */
export function queryInput(url: string): Record<string, unknown> {
  const input: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const add = (target: Record<string, unknown>, key: string, value: string) => {
    const present = target[key];
    target[key] = present === undefined ? value : Array.isArray(present) ? [...(present as unknown[]), value] : [present, value];
  };
  const search = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  for (const [name, value] of new URLSearchParams(search)) {
    const nested = /^([A-Za-z]\w*)\[([^\]]+)\]$/.exec(name);
    if (!nested) {
      add(input, name, value);
      continue;
    }
    const [, outer = '', key = ''] = nested;
    const present = input[outer];
    const group = present !== undefined && typeof present === 'object' && !Array.isArray(present) ? (present as Record<string, unknown>) : undefined;
    if (present !== undefined && !group) {
      add(input, name, value); // `posData=x` beside `posData[k]=y`: left as sent, for the schema to refuse
      continue;
    }
    add((input[outer] = group ?? (Object.create(null) as Record<string, unknown>)) as Record<string, unknown>, key, value);
  }
  return { ...input };
}

function parsePathParams(params: Record<string, string>): Record<string, string> {
  const parsed: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    const schema = PATH_PARAMS[name];
    if (!schema) throw new Error(`no schema for the path parameter ${name} in path-params.ts`);
    parsed[name] = parseInput(schema, value, [name]);
  }
  return parsed;
}
