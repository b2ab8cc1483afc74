import SwaggerParser from '@apidevtools/swagger-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from './endpoints';
import { API_ERRORS } from './error-codes';
import { buildOpenApiDocument, openApiOperations, type JsonSchema, type OpenApiDocument } from './openapi';
import { PROBLEM_CONTENT_TYPE } from './problem';

const SERVER_URL = 'http://localhost:8080';
const sandbox = buildOpenApiDocument({ serverUrl: SERVER_URL, sandbox: true });
const production = buildOpenApiDocument({ serverUrl: 'https://pay.example.com', sandbox: false });

/** Every `$ref` anywhere in the document. */
function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => refsIn(item, found));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

function resolvePointer(document: OpenApiDocument, ref: string): unknown {
  expect(ref.startsWith('#/')).toBe(true);
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, segment) => (node as Record<string, unknown> | undefined)?.[segment], document);
}

describe('the OpenAPI document', () => {
  it.each([
    ['sandbox', sandbox],
    ['production', production],
  ])('is a valid OpenAPI 3.1 document (%s)', async (_mode, document) => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it.each([
    ['sandbox', sandbox],
    ['production', production],
  ])('is valid for a second validator, swagger-parser, $refs resolved (%s)', async (_mode, document) => {
    const parsed = (await SwaggerParser.validate(structuredClone(document) as never)) as { openapi?: string };
    expect(parsed.openapi).toBe('3.1.0');
  });

  it('describes the callback under webhooks: the transaction as the POST body, every signature header, GET without a body', () => {
    for (const document of [sandbox, production]) {
      const post = document.webhooks.transactionUpdated?.post;
      expect(post?.requestBody?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Transaction' });
      const headers = post?.parameters.filter((p) => p.in === 'header').map((p) => p.name);
      expect(headers).toEqual(['HMAC-Random-Key', 'HMAC-Authorization', 'webhook-id', 'webhook-timestamp', 'webhook-signature']);
      expect(Object.keys(post?.responses ?? {}).sort()).toEqual(['2XX', '410', 'default']);
      const get = document.webhooks.transactionUpdated?.get;
      expect(get?.requestBody).toBeUndefined();
      expect(get?.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(['TransactionNumber', 'callbackType']);
      expect(document.components.schemas.Transaction).toBeDefined();
    }
  });

  it('resolves every $ref to something in the document', () => {
    for (const document of [sandbox, production]) {
      const refs = refsIn(document);
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) expect(resolvePointer(document, ref), ref).toBeDefined();
    }
  });

  it('names the service, its server and the bearer scheme, and explains authentication, amounts, errors and idempotency', () => {
    expect(sandbox.openapi).toBe('3.1.0');
    expect(sandbox.info.title).toBe('svc payment service API');
    expect(sandbox.info.version).toBe('1.0.0');
    expect(sandbox.servers).toEqual([{ url: SERVER_URL, description: 'Sandbox' }]);
    expect(sandbox.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const phrase of [
      'Authorization: Bearer',
      'apiKey',
      'deviceId',
      'isCent',
      'application/problem+json',
      'Idempotency-Key',
      'idempotency_key_reused',
      'idempotency_key_in_use',
    ]) {
      expect(sandbox.info.description).toContain(phrase);
    }
  });

  it('has every endpoint of ENDPOINTS with its method, path parameters and every error status', () => {
    for (const endpoint of ENDPOINTS) {
      const operation = sandbox.paths[endpoint.path]?.[endpoint.method];
      expect(operation, `${endpoint.method} ${endpoint.path}`).toBeDefined();
      if (!operation) continue;
      expect(operation.operationId).toBe(endpoint.operationId);
      expect(operation.tags).toEqual([endpoint.tag]);
      expect(operation.responses[String(endpoint.response.status)]?.content?.[endpoint.response.contentType ?? 'application/json']).toBeDefined();
      for (const code of endpoint.errors) {
        const response = operation.responses[String(API_ERRORS[code].status)];
        expect(response, `${endpoint.operationId} ${code}`).toBeDefined();
        expect(response?.description).toContain(code);
        expect(response?.content?.[PROBLEM_CONTENT_TYPE]?.schema).toEqual({ $ref: '#/components/schemas/ProblemDetails' });
      }
      const pathNames = [...endpoint.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const parameters = (operation.parameters ?? []).filter((p) => 'in' in p && p.in === 'path');
      expect(parameters.map((p) => ('name' in p ? p.name : ''))).toEqual(pathNames);
      const takesKey = (operation.parameters ?? []).some((p) => '$ref' in p && p.$ref === '#/components/parameters/IdempotencyKey');
      expect(takesKey).toBe(endpoint.idempotent);
      expect(operation.requestBody !== undefined).toBe(endpoint.request !== undefined);
    }
    expect(openApiOperations(sandbox)).toHaveLength(ENDPOINTS.length);
  });

  it("lists a GET's query schema as its query parameters: a list repeated, an object as name[key]", () => {
    const parameters = sandbox.paths['/transactions']?.get?.parameters ?? [];
    const byName = Object.fromEntries(parameters.flatMap((p) => ('in' in p && p.in === 'query' ? [[p.name, p]] : [])));
    expect(Object.keys(byName).sort()).toEqual(
      ['createdFrom', 'createdTo', 'deviceId', 'limit', 'maxAmount', 'methodType', 'minAmount', 'posData', 'q', 'startingAfter', 'status'].sort(),
    );
    expect(Object.values(byName).every((p) => !p.required && p.description.length > 10)).toBe(true);
    expect(byName.posData).toMatchObject({ style: 'deepObject', explode: true, schema: { type: 'object' } });
    expect(byName.methodType?.schema).toMatchObject({ enum: ['sale', 'authorize', 'manual_capture', 'tokenize'] });
    for (const endpoint of ENDPOINTS.filter((e) => !e.query)) {
      const query = (sandbox.paths[endpoint.path]?.[endpoint.method]?.parameters ?? []).filter((p) => 'in' in p && p.in === 'query');
      expect(query, endpoint.operationId).toEqual([]);
    }
  });

  it('gives every listing that answers a page (`nextCursor`) its `limit` and `startingAfter`, so a client can page it', () => {
    const pages = ENDPOINTS.filter((e) => 'nextCursor' in ((e.response.schema as { shape?: object }).shape ?? {}));
    expect(pages.map((e) => e.operationId)).toEqual(expect.arrayContaining(['listTransactions', 'listAuditLog']));
    for (const endpoint of pages) {
      const query = (sandbox.paths[endpoint.path]?.[endpoint.method]?.parameters ?? []).flatMap((p) => ('in' in p && p.in === 'query' ? [p] : []));
      expect(
        query.map((p) => p.name),
        endpoint.operationId,
      ).toEqual(expect.arrayContaining(['limit', 'startingAfter']));
    }
  });

  it('leaves the sandbox-only endpoints out of a production document', () => {
    const sandboxOnly = ENDPOINTS.filter((e) => e.sandboxOnly);
    expect(sandboxOnly.length).toBeGreaterThan(0);
    for (const endpoint of sandboxOnly) {
      expect(production.paths[endpoint.path]?.[endpoint.method]).toBeUndefined();
      expect(sandbox.paths[endpoint.path]?.[endpoint.method]).toBeDefined();
    }
    expect(openApiOperations(production)).toHaveLength(ENDPOINTS.length - sandboxOnly.length);
    expect(production.tags.map((t) => t.name)).not.toContain('Sandbox');
    expect(production.components.schemas.Clock).toBeUndefined();
    expect(production.servers[0]?.description).toBe('Production');
  });

  it("describes the transaction once, with the spec's field names, and refers to it elsewhere", () => {
    const transaction = sandbox.components.schemas.Transaction as JsonSchema & { properties: Record<string, JsonSchema>; required: string[] };
    expect(transaction.type).toBe('object');
    for (const field of ['TransactionNumber', 'statusName', 'paymentMethodData', 'SMS', 'paymentCommit', 'transactionPage', 'amountCents', 'sequence']) {
      expect(transaction.properties).toHaveProperty(field);
      expect(transaction.required).toContain(field);
    }
    expect(transaction.properties.paymentCommit).toEqual({ $ref: '#/components/schemas/PaymentCommit' });
    const commit = sandbox.components.schemas.PaymentCommit as { properties: Record<string, unknown> };
    expect(Object.keys(commit.properties)).toEqual(['messsage', 'isPaymentCommitted', 'secondsToCommit', 'commitLink']);
    const init = sandbox.paths['/transactions/init']?.post;
    expect(init?.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Transaction' });
    const pay = sandbox.components.schemas.PayResponse as { properties: Record<string, unknown> };
    expect(pay.properties.transaction).toEqual({ $ref: '#/components/schemas/Transaction' });
    const text = JSON.stringify(sandbox);
    expect(text.match(/"TransactionNumber":\{"type":"string"\}/g)?.length ?? 0).toBeLessThanOrEqual(2);
  });

  it('keeps JSON Schema dialect keys out of the components', () => {
    const text = JSON.stringify(sandbox.components.schemas);
    expect(text).not.toContain('"$schema"');
    expect(text).not.toContain('"$id"');
    expect(text).not.toContain('"$defs"');
  });

  it('documents request bodies as clients send them', () => {
    const init = sandbox.components.schemas.InitTransactionRequest as { properties: Record<string, JsonSchema>; required: string[] };
    expect(init.required).toEqual(['currency']);
    expect(init.properties.currency?.description).toContain('USD');
    expect(init.properties.products).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/ProductInput' } });
    expect(init.properties.deviceId?.description).toContain('dev_');
    const cancel = sandbox.paths['/transactions/{transactionNumber}/cancel']?.post;
    expect(cancel?.requestBody?.required).toBe(false);
    expect(sandbox.paths['/transactions/init']?.post?.requestBody?.required).toBe(true);
  });

  it('groups the error codes that share a status into one problem response with an example per code', () => {
    const closeAuth = sandbox.paths['/transactions/{transactionNumber}/closeAuth']?.post;
    const conflict = closeAuth?.responses['409'];
    for (const code of ['not_an_authorization', 'no_successful_payment', 'nothing_to_release', 'close_auth_unsupported', 'idempotency_key_in_use'] as const) {
      expect(conflict?.description).toContain(code);
      expect(conflict?.content?.[PROBLEM_CONTENT_TYPE]?.examples?.[code]?.value).toMatchObject({ code, status: 409, type: `/docs/errors#${code}` });
      expect(conflict?.content?.[PROBLEM_CONTENT_TYPE]?.examples?.[code]?.description).toBe(`${API_ERRORS[code].cause} ${API_ERRORS[code].fix}`);
    }
    expect(closeAuth?.responses['422']?.description).toContain('idempotency_key_reused');
  });
});
