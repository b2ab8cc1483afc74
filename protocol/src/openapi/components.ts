import { z } from 'zod';
import { RequiresActionSchema, ThreeDSecureSchema } from '../authentication';
import type { EndpointDescription } from '../endpoints/description';
import { InitTransactionRequestSchema, ProductInputSchema } from '../init-request';
import {
  AuthorizeRequestSchema,
  BillingAddressSchema,
  CardInputSchema,
  ClockAdvanceRequestSchema,
  ClockSchema,
  ConsumerPayRequestSchema,
  EmptyRequestSchema,
  HealthSchema,
  LivenessSchema,
  ReadinessCheckSchema,
  ReadinessSchema,
  PaymentLinkStateSchema,
  PayRequestSchema,
  PayResponseSchema,
  SandboxMessageSchema,
  SandboxMessagesSchema,
  VoidRequestSchema,
} from '../lifecycle-requests';
import { CallbackDeliverySchema, CallbackLogSchema, RedeliverResponseSchema } from '../callbacks';
import { ReceiptSchema, SaveReceiptRequestSchema, SaveReceiptResponseSchema } from '../channels';
import { ProblemDetailsSchema, ProblemFieldErrorSchema } from '../problem';
import { CommitRequestSchema, CommitResponseSchema } from '../sdk';
import {
  AuthorizationSchema,
  BrowserTransactionSchema,
  ConfirmationSchema,
  DirectAppLinksSchema,
  PaymentCommitSchema,
  PaymentDetailsSchema,
  PaymentSchema,
  ProductSchema,
  TransactionSchema,
} from '../transaction';
import type { JsonSchema } from './types';
import { EventSchema, WebhookEndpointSchema } from '../webhook-endpoints';

export const SCHEMA_REF_PREFIX = '#/components/schemas/';

export function schemaRef(name: string): { $ref: string } {
  return { $ref: `${SCHEMA_REF_PREFIX}${name}` };
}

/**
 * Names of the shared component schemas. Responses are converted with `io: 'output'` (what the service sends),
 * requests with `io: 'input'` (what a client may send, before the server's transforms). Wherever one of these
 * schemas appears inside another, the document has a `$ref` to it instead of a copy.
 */
const OUTPUT_COMPONENTS: ReadonlyArray<readonly [z.ZodType, string]> = [
  [TransactionSchema, 'Transaction'],
  [BrowserTransactionSchema, 'BrowserTransaction'],
  [ProductSchema, 'Product'],
  [ConfirmationSchema, 'Confirmation'],
  [PaymentCommitSchema, 'PaymentCommit'],
  [PaymentDetailsSchema, 'PaymentDetails'],
  [AuthorizationSchema, 'Authorization'],
  [PaymentSchema, 'Payment'],
  [DirectAppLinksSchema, 'DirectAppLinks'],
  [ProblemDetailsSchema, 'ProblemDetails'],
  [ProblemFieldErrorSchema, 'ProblemFieldError'],
  [PayResponseSchema, 'PayResponse'],
  [PaymentLinkStateSchema, 'PaymentLinkState'],
  [ClockSchema, 'Clock'],
  [SandboxMessageSchema, 'SandboxMessage'],
  [SandboxMessagesSchema, 'SandboxMessages'],
  [HealthSchema, 'Health'],
  [CommitResponseSchema, 'CommitResponse'],
  [CallbackLogSchema, 'CallbackLog'],
  [CallbackDeliverySchema, 'CallbackDelivery'],
  [RedeliverResponseSchema, 'RedeliverResponse'],
  [EventSchema, 'WebhookEvent'],
  [WebhookEndpointSchema, 'WebhookEndpoint'],
  [SaveReceiptResponseSchema, 'SaveReceiptResponse'],
  [ReceiptSchema, 'Receipt'],
  [LivenessSchema, 'Liveness'],
  [RequiresActionSchema, 'RequiresAction'],
  [ThreeDSecureSchema, 'ThreeDSecure'],
  [ReadinessCheckSchema, 'ReadinessCheck'],
  [ReadinessSchema, 'Readiness'],
];

const INPUT_COMPONENTS: ReadonlyArray<readonly [z.ZodType, string]> = [
  [InitTransactionRequestSchema, 'InitTransactionRequest'],
  [ProductInputSchema, 'ProductInput'],
  [PayRequestSchema, 'PayRequest'],
  [VoidRequestSchema, 'VoidRequest'],
  [AuthorizeRequestSchema, 'AuthorizeRequest'],
  [EmptyRequestSchema, 'EmptyRequest'],
  [ConsumerPayRequestSchema, 'ConsumerPayRequest'],
  [CardInputSchema, 'CardInput'],
  [BillingAddressSchema, 'BillingAddress'],
  [ClockAdvanceRequestSchema, 'ClockAdvanceRequest'],
  [CommitRequestSchema, 'CommitRequest'],
  [SaveReceiptRequestSchema, 'SaveReceiptRequest'],
];

/** Body fields whose meaning is the same everywhere; used where the zod schema carries no description. */
const KNOWN_FIELD_DESCRIPTIONS: Record<string, string> = {
  apiKey: 'Merchant (`sk_`) or branch (`bk_`) API key, for clients that cannot send `Authorization: Bearer` (spec compatibility).',
  deviceId: 'Device ID (`dev_`): authenticates the call as that terminal, and the transaction is pushed to it.',
};

export interface ComponentSchemas {
  schemas: Record<string, JsonSchema>;
  requestName(endpoint: EndpointDescription): string | undefined;
  responseName(endpoint: EndpointDescription): string;
  /** The component name of one of the endpoint's `otherResponses` schemas. */
  otherResponseName(schema: z.ZodType): string;
}

/** Converts every schema the endpoints use into `components.schemas`, named, with `$ref`s between them. */
export function buildComponentSchemas(endpoints: readonly EndpointDescription[]): ComponentSchemas {
  const input = new NamedSchemas(INPUT_COMPONENTS);
  const output = new NamedSchemas(OUTPUT_COMPONENTS);
  const requestNames = new Map<EndpointDescription, string>();
  const responseNames = new Map<EndpointDescription, string>();
  for (const endpoint of endpoints) {
    const base = endpoint.operationId.charAt(0).toUpperCase() + endpoint.operationId.slice(1);
    if (endpoint.request) requestNames.set(endpoint, input.nameFor(endpoint.request, `${base}Request`));
    if (!endpoint.response.contentType) responseNames.set(endpoint, output.nameFor(endpoint.response.schema, `${base}Response`));
    for (const other of endpoint.otherResponses ?? []) output.nameFor(other.schema, `${base}Response${other.status}`);
  }
  const schemas: Record<string, JsonSchema> = {};
  for (const [io, named] of [
    ['input', input],
    ['output', output],
  ] as const) {
    for (const [name, schema] of Object.entries(named.toJsonSchemas(io))) {
      if (schemas[name]) throw new Error(`OpenAPI component ${name} is both a request and a response schema`);
      schemas[name] = tidy(schema, io);
    }
  }
  return {
    schemas,
    requestName: (endpoint) => requestNames.get(endpoint),
    responseName: (endpoint) => {
      const name = responseNames.get(endpoint);
      if (!name) throw new Error(`no response schema for ${endpoint.operationId}`);
      return name;
    },
    otherResponseName: (schema) => output.nameFor(schema, 'unnamed'),
  };
}

/** A zod registry of uniquely named schemas for one direction (input or output). */
class NamedSchemas {
  private readonly registry = z.registry<{ id: string }>();
  private readonly names = new Map<z.ZodType, string>();
  private readonly taken = new Set<string>();

  constructor(known: ReadonlyArray<readonly [z.ZodType, string]>) {
    for (const [schema, name] of known) this.add(schema, name);
  }

  nameFor(schema: z.ZodType, fallback: string): string {
    return this.names.get(schema) ?? this.add(schema, fallback);
  }

  toJsonSchemas(io: 'input' | 'output'): Record<string, JsonSchema> {
    const result = z.toJSONSchema(this.registry, {
      io,
      unrepresentable: 'any',
      uri: (id) => `${SCHEMA_REF_PREFIX}${id}`,
      override: describeCaseInsensitiveEnums,
    });
    return result.schemas as Record<string, JsonSchema>;
  }

  private add(schema: z.ZodType, name: string): string {
    if (this.taken.has(name)) throw new Error(`two different schemas would both be named ${name} in the OpenAPI document`);
    this.taken.add(name);
    this.names.set(schema, name);
    this.registry.add(schema, { id: name });
    return name;
  }
}

type OverrideContext = { zodSchema: unknown; jsonSchema: JsonSchema };

/**
 * Fields like `currency` and `methodType` accept any letter case (`string → transform → enum`), so their input
 * schema would be any string. Say the accepted values as a pattern that takes each in any letter case (JSON Schema's
 * patterns have no flags), and name them in the description.
 */
function describeCaseInsensitiveEnums(ctx: OverrideContext): void {
  const values = enumBehindTransform(ctx.zodSchema);
  if (!values) return;
  ctx.jsonSchema.pattern = `^(?:${values.map(anyLetterCase).join('|')})$`;
  const hint = `One of ${values.join(', ')} (any letter case).`;
  const current = typeof ctx.jsonSchema.description === 'string' ? ctx.jsonSchema.description : '';
  if (!current.includes(hint)) ctx.jsonSchema.description = current ? `${current.replace(/\.?$/, '.')} ${hint}` : hint;
}

/** `usd` → `[uU][sS][dD]`: a pattern of `value` in any letter case, other characters matched as they are. */
function anyLetterCase(value: string): string {
  return [...value]
    .map((char) => (char.toLowerCase() !== char.toUpperCase() ? `[${char.toLowerCase()}${char.toUpperCase()}]` : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
}

type ZodDefLike = { type?: string; in?: unknown; out?: unknown; innerType?: unknown; entries?: Record<string, unknown> };

function defOf(schema: unknown): ZodDefLike | undefined {
  return (schema as { _zod?: { def?: ZodDefLike } } | undefined)?._zod?.def;
}

function enumBehindTransform(schema: unknown): string[] | undefined {
  const def = defOf(schema);
  if (!def) return undefined;
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') return enumBehindTransform(def.innerType);
  if (def.type !== 'pipe') return undefined;
  const source = defOf(def.in);
  const transformed = source?.type === 'pipe' && defOf(source.out)?.type === 'transform';
  const out = defOf(def.out);
  return transformed && out?.type === 'enum' && out.entries ? Object.values(out.entries).map(String) : undefined;
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * Makes zod's output fit for `components.schemas`: no `$schema`/`$id` (the document's dialect applies), no
 * safe-integer bounds (noise), known descriptions on `apiKey`/`deviceId`, and response objects left open
 * (`additionalProperties: false` removed) because responses may gain fields and clients must ignore them.
 */
function tidy(schema: JsonSchema, io: 'input' | 'output'): JsonSchema {
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === '$id') continue;
    if ((key === 'minimum' || key === 'maximum') && typeof value === 'number' && SAFE_INTEGER_BOUNDS.has(value)) continue;
    if (key === 'additionalProperties' && value === false && io === 'output') continue;
    if (DATA_KEYWORDS.has(key) || value === null || typeof value !== 'object') {
      result[key] = value;
    } else if (Array.isArray(value)) {
      result[key] = value.map((item: unknown) => (isSchema(item) ? tidy(item, io) : item));
    } else if (SCHEMA_MAP_KEYWORDS.has(key)) {
      const map: JsonSchema = {};
      for (const [name, sub] of Object.entries(value)) map[name] = isSchema(sub) ? tidy(sub, io) : sub;
      result[key] = key === 'properties' ? describeKnownFields(map) : map;
    } else {
      result[key] = tidy(value as JsonSchema, io);
    }
  }
  return result;
}

/** Keywords whose value is data (or a list of names), not a schema. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required', 'type']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describeKnownFields(properties: JsonSchema): JsonSchema {
  for (const [name, description] of Object.entries(KNOWN_FIELD_DESCRIPTIONS)) {
    const property = properties[name];
    if (isSchema(property) && property.description === undefined) property.description = description;
  }
  return properties;
}
