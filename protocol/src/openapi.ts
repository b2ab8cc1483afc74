import { z } from 'zod';
import { ENDPOINTS, type EndpointDescription } from './endpoints';
import { API_ERRORS, type ApiErrorCode } from './error-codes';
import { buildComponentSchemas, schemaRef, type ComponentSchemas } from './openapi/components';
import { AUTH_DESCRIPTIONS, guideAsMarkdown, guideFor, TAG_DESCRIPTIONS } from './openapi/guide';
import { transactionWebhooks } from './openapi/webhooks';
import type { HttpMethod, JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiOperationEntry, OpenApiParameter, OpenApiResponse } from './openapi/types';
import { PROBLEM_CONTENT_TYPE, problemFor, type ProblemDetails } from './problem';

export * from './openapi/types';
export { SCHEMA_REF_PREFIX } from './openapi/components';
export { API_GUIDE, AUTH_DESCRIPTIONS, guideFor, TAG_DESCRIPTIONS, type GuideSection } from './openapi/guide';

export const OPENAPI_TITLE = 'svc payment service API';
export const OPENAPI_VERSION = '1.0.0';
const BEARER_SCHEME = 'bearerAuth';
const EXAMPLE_REQUEST_ID = '0b8f9a52-7c1e-4a4e-9d3e-2f6c1a9b7e10';

const PATH_PARAMETER_DESCRIPTIONS: Record<string, string> = {
  transactionNumber: "The transaction's `TransactionNumber`, as returned by `POST /transactions/init`.",
  linkId: "The payment link id: the last segment of the transaction's `transactionPage.qrURL`.",
  commitCode: 'What follows `cmt_` in the last segment of `paymentCommit.commitLink` (the commit id); it is the only credential.',
  deliveryId: "The `deliveryId` of an entry of the transaction's callback log.",
  deviceId: 'The device ID (`dev_…`).',
  credentialId: 'The `credentialId` of an entry of `GET /credentials` (not the key itself).',
  authenticationId: "The last segment of a 202 `requires_action` answer's `action.url` (the authentication's id).",
  stickerCode: "The public code of a device's sticker: the last segment of its `stickerUrl` (not a credential).",
};

const REASON_PHRASES: Record<number, string> = {
  200: 'OK',
  202: 'Accepted',
  303: 'See Other',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/**
 * The service's OpenAPI 3.1 document, generated from ENDPOINTS and the protocol's zod schemas. Sandbox-only
 * endpoints are included only when `sandbox` is true.
 */
export function buildOpenApiDocument(options: { serverUrl: string; sandbox: boolean }): OpenApiDocument {
  const endpoints = ENDPOINTS.filter((e) => options.sandbox || !e.sandboxOnly);
  const components = buildComponentSchemas(endpoints);
  const paths: OpenApiDocument['paths'] = {};
  for (const endpoint of endpoints) {
    const item = (paths[endpoint.path] ??= {});
    if (item[endpoint.method]) throw new Error(`${endpoint.method.toUpperCase()} ${endpoint.path} is described twice in ENDPOINTS`);
    item[endpoint.method] = operationFor(endpoint, components);
  }
  const usedTags = new Set(endpoints.map((e) => e.tag));
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: OPENAPI_TITLE,
      version: OPENAPI_VERSION,
      description: [
        `A self-hostable payment service${options.sandbox ? ' (this server runs in **sandbox** mode: test cards, test clock, no real money)' : ''}. ` +
          'All request and response bodies are JSON.',
        guideAsMarkdown(guideFor(options.sandbox)),
      ].join('\n\n'),
    },
    servers: [{ url: options.serverUrl, description: options.sandbox ? 'Sandbox' : 'Production' }],
    tags: (Object.keys(TAG_DESCRIPTIONS) as EndpointDescription['tag'][])
      .filter((tag) => usedTags.has(tag))
      .map((tag) => ({ name: tag, description: TAG_DESCRIPTIONS[tag] })),
    paths,
    webhooks: transactionWebhooks(),
    components: {
      schemas: components.schemas,
      securitySchemes: {
        [BEARER_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A merchant API key (`sk_…`) or branch API key (`bk_…`) (only a merchant API key where `x-svc-auth` is `merchant_key`); on operations whose `x-svc-auth` lists `device`, also a ' +
            'device ID (`dev_…`). For spec compatibility the key may be sent in the body field `apiKey` instead, and a device ID ' +
            'in the body field `deviceId`: an operation whose body takes them lists an empty requirement (`{}`) beside this ' +
            'one, a request without the header whose body carries the credential (`x-svc-body-credentials` names the fields).',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes a retry safe: the same key and body within 24 h replay the first response (with `Idempotent-Replayed: true`); ' +
            'another body answers 422 `idempotency_key_reused`; a retry while the first still runs answers 409 `idempotency_key_in_use`. ' +
            "Scoped to the credential's merchant.",
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        Location: { description: 'Where the redirect leads.', schema: { type: 'string' } },
        XRequestId: {
          description:
            "Identifies the request in the service's logs; quote it when asking for help. The caller's own `X-Request-Id` " +
            '(8 to 64 letters, digits, `.`, `_` or `-`) is echoed; otherwise the service makes one.',
          schema: { type: 'string' },
        },
        IdempotentReplayed: {
          description: '`true` when this is the stored response of an earlier request with the same `Idempotency-Key`.',
          schema: { type: 'string', enum: ['true'] },
        },
        RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'string' } },
      },
    },
  };
  pruneUnusedSchemas(document);
  return document;
}

function operationFor(endpoint: EndpointDescription, components: ComponentSchemas): OpenApiOperation {
  const parameters: OpenApiOperation['parameters'] = [...pathParameters(endpoint.path), ...queryParameters(endpoint.query)];
  if (endpoint.idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  const requestName = components.requestName(endpoint);
  const successHeaders: OpenApiResponse['headers'] = { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } };
  if (endpoint.idempotent) successHeaders['Idempotent-Replayed'] = { $ref: '#/components/headers/IdempotentReplayed' };
  const callers = endpoint.auth.map((kind) => AUTH_DESCRIPTIONS[kind]).join('; ');
  const bodyCredentials = bodyCredentialFields(endpoint);
  return {
    operationId: endpoint.operationId,
    tags: [endpoint.tag],
    summary: endpoint.summary,
    description: `${endpoint.description}\n\n**Callers:** ${callers}.${endpoint.idempotent ? ' Accepts `Idempotency-Key`.' : ''}`,
    security: securityFor(endpoint, bodyCredentials),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(endpoint.request && requestName
      ? {
          requestBody: {
            // A body that may be empty (`{}` is valid) need not be sent at all.
            required: !endpoint.request.safeParse({}).success,
            content: { 'application/json': { schema: schemaRef(requestName) } },
          },
        }
      : {}),
    responses: {
      [String(endpoint.response.status)]: {
        description: endpoint.response.description,
        headers: successHeaders,
        content: endpoint.response.contentType
          ? { [endpoint.response.contentType]: { schema: { type: 'string' } } }
          : { 'application/json': { schema: schemaRef(components.responseName(endpoint)) } },
      },
      ...Object.fromEntries(
        (endpoint.otherResponses ?? []).map((answer) => [
          String(answer.status),
          {
            description: answer.description,
            headers: successHeaders,
            content: { 'application/json': { schema: schemaRef(components.otherResponseName(answer.schema)) } },
          },
        ]),
      ),
      ...pageResponses(endpoint),
      ...errorResponses(endpoint.errors),
    },
    'x-svc-auth': [...endpoint.auth],
    ...(bodyCredentials.length > 0 ? { 'x-svc-body-credentials': bodyCredentials } : {}),
    'x-svc-error-codes': [...new Set(endpoint.errors)],
    'x-svc-idempotent': endpoint.idempotent,
    ...(endpoint.sandboxOnly ? { 'x-svc-sandbox-only': true as const } : {}),
  };
}

function pathParameters(path: string): OpenApiParameter[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    required: true,
    description: PATH_PARAMETER_DESCRIPTIONS[name] ?? `The ${name}.`,
    schema: { type: 'string' },
  }));
}

/**
 * One query parameter per field of the endpoint's query schema, as a client sends them: a list is the parameter
 * repeated (`form`, exploded), an object is `name[key]=value` (`deepObject`).
 */
export function queryParameters(schema: z.ZodType | undefined): OpenApiParameter[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    const isObject = rest.type === 'object';
    return {
      name,
      in: 'query',
      required: required.has(name),
      description: typeof description === 'string' ? description : `The ${name}.`,
      schema: rest,
      ...(isObject ? { style: 'deepObject' as const, explode: true } : {}),
    };
  });
}

function securityFor(endpoint: EndpointDescription, bodyCredentials: readonly string[]): Record<string, string[]>[] {
  // No credential, or a client ID in the body: nothing in the Authorization header.
  if (endpoint.auth.includes('none') || endpoint.auth.every((a) => a === 'client')) return [];
  // API keys and device IDs both go in the bearer header; where the body takes them (spec compatibility), a request
  // without the header is the alternative (`{}`), its credential in the body.
  return bodyCredentials.length > 0 ? [{ [BEARER_SCHEME]: [] }, {}] : [{ [BEARER_SCHEME]: [] }];
}

/**
 * The body fields that may carry the caller's credential instead of the bearer header, as the service reads them:
 * `apiKey` where a merchant's key may call, `deviceId` where a device may, each only if the request schema has it.
 */
export function bodyCredentialFields(endpoint: EndpointDescription): string[] {
  if (!endpoint.request || endpoint.method === 'get') return [];
  const fields = propertyNames(z.toJSONSchema(endpoint.request, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
  const byKey = endpoint.auth.includes('merchant') || endpoint.auth.includes('merchant_key');
  return [...(byKey && fields.has('apiKey') ? ['apiKey'] : []), ...(endpoint.auth.includes('device') && fields.has('deviceId') ? ['deviceId'] : [])];
}

/** The property names of an object schema, and of each alternative of a union of objects. */
function propertyNames(schema: JsonSchema): Set<string> {
  const alternatives = ['anyOf', 'oneOf', 'allOf'].flatMap((keyword) => (Array.isArray(schema[keyword]) ? (schema[keyword] as JsonSchema[]) : []));
  return new Set([...Object.keys((schema.properties ?? {}) as JsonSchema), ...alternatives.flatMap((alternative) => [...propertyNames(alternative)])]);
}

/** A page's answers besides its success: a redirect (its Location, no body), or an HTML page (an unknown link's 404). */
function pageResponses(endpoint: EndpointDescription): Record<string, OpenApiResponse> {
  const responses: Record<string, OpenApiResponse> = {};
  for (const answer of endpoint.pageAnswers ?? []) {
    if (endpoint.errors.some((code) => API_ERRORS[code].status === answer.status)) {
      throw new Error(`${endpoint.operationId} answers ${answer.status} both as a page and as a problem`);
    }
    const headers: OpenApiResponse['headers'] = { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } };
    if ('redirect' in answer) headers['Location'] = { $ref: '#/components/headers/Location' };
    responses[String(answer.status)] = {
      description: answer.description,
      headers,
      ...('contentType' in answer ? { content: { [answer.contentType]: { schema: { type: 'string' } } } } : {}),
    };
  }
  return responses;
}

/** One problem+json response per HTTP status; its description and examples name every code it may carry. */
function errorResponses(codes: readonly ApiErrorCode[]): Record<string, OpenApiResponse> {
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = API_ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, OpenApiResponse> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: OpenApiResponse['headers'] = { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } };
    if (status === 429 || status === 503) headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
    responses[String(status)] = {
      description: `${REASON_PHRASES[status] ?? 'Error'}: ${group.map((code) => `\`${code}\` (${API_ERRORS[code].title})`).join('; ')}.`,
      headers,
      content: {
        [PROBLEM_CONTENT_TYPE]: {
          schema: schemaRef('ProblemDetails'),
          examples: Object.fromEntries(
            group.map((code) => {
              const { title, cause, fix } = API_ERRORS[code];
              return [code, { summary: title, description: `${cause} ${fix}`, value: exampleProblem(code) }];
            }),
          ),
        },
      },
      'x-svc-error-codes': group,
    };
  }
  return responses;
}

function exampleProblem(code: ApiErrorCode): ProblemDetails {
  if (code === 'validation_failed') {
    return problemFor(code, 'amount: must be greater than 0', EXAMPLE_REQUEST_ID, [{ path: 'amount', message: 'must be greater than 0' }]);
  }
  return problemFor(code, `${API_ERRORS[code].title}.`, EXAMPLE_REQUEST_ID);
}

/** Drops component schemas no operation reaches (e.g. sandbox-only ones in production). */
function pruneUnusedSchemas(document: OpenApiDocument): void {
  const reached = new Set<string>();
  const pending: unknown[] = [document.paths, document.webhooks];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!reached.has(name)) {
          reached.add(name);
          pending.push(document.components.schemas[name]);
        }
      } else {
        pending.push(value);
      }
    }
  }
  for (const name of Object.keys(document.components.schemas)) {
    if (!reached.has(name)) delete document.components.schemas[name];
  }
}

/** Every operation of a document built by buildOpenApiDocument, in document order. */
export function openApiOperations(document: OpenApiDocument): OpenApiOperationEntry[] {
  const entries: OpenApiOperationEntry[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'delete'] as const satisfies HttpMethod[]) {
      const operation = item[method];
      if (operation) entries.push({ path, method, operation });
    }
  }
  return entries;
}
