/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = { [key: string]: unknown };

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
  /** `deepObject` for an object parameter sent as `name[key]=value`. */
  style?: 'deepObject' | 'form';
  explode?: boolean;
}

export type OpenApiRef = { $ref: string };

export interface OpenApiHeader {
  description: string;
  schema: JsonSchema;
  required?: boolean;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, OpenApiHeader | OpenApiRef>;
  content?: Record<string, { schema: JsonSchema; examples?: Record<string, { summary: string; description?: string; value: unknown }> }>;
  /** The stable error codes this response carries (problem responses only). */
  'x-svc-error-codes'?: string[];
}

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  security: Record<string, string[]>[];
  parameters?: (OpenApiParameter | OpenApiRef)[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, OpenApiResponse>;
  /** Who may call: `merchant` (API or branch key), `device` (device ID in the body), `none`. */
  'x-svc-auth': string[];
  /** The body fields that may carry the credential instead of the bearer header (`apiKey`, `deviceId`). */
  'x-svc-body-credentials'?: string[];
  /** Every error code the operation may answer with, in the order of ENDPOINTS. */
  'x-svc-error-codes': string[];
  'x-svc-idempotent': boolean;
  'x-svc-sandbox-only'?: true;
}

export type HttpMethod = 'get' | 'post' | 'put';

/** A request the service makes to the merchant (a callback), under the document's `webhooks`. */
export interface OpenApiWebhookOperation {
  operationId: string;
  summary: string;
  description: string;
  /** None: the service signs the callback (its parameters carry the signatures); the merchant's endpoint takes no credential of ours. */
  security: [];
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string }>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;
  /** The callbacks the service sends to a transaction's `callbackURL`. */
  webhooks: Record<string, Partial<Record<HttpMethod, OpenApiWebhookOperation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; description: string }>;
    parameters: Record<string, OpenApiParameter>;
    headers: Record<string, OpenApiHeader>;
  };
}

/** One operation of the document with its path and method, in document order. */
export interface OpenApiOperationEntry {
  path: string;
  method: HttpMethod;
  operation: OpenApiOperation;
}
