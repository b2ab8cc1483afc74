import { SCHEMA_REF_PREFIX, type JsonSchema } from '@svc/protocol';

/** One row of a field table: nested objects are flattened to dotted names, array items to `name[].field`. */
export interface FieldRow {
  name: string;
  type: string;
  /** A component documented in a section of its own (e.g. Transaction): the type cell links to it. */
  typeLink?: string;
  required: boolean;
  description: string;
}

export interface FieldContext {
  components: Record<string, JsonSchema>;
  /** Components that have a section of their own and are linked instead of expanded. */
  standalone: ReadonlySet<string>;
}

const MAX_DEPTH = 5;
const MAX_LISTED_VALUES = 15;

/** The name of the component a schema refers to, if it is a `$ref`. */
export function refName(schema: JsonSchema | undefined): string | undefined {
  const ref = schema?.$ref;
  return typeof ref === 'string' && ref.startsWith(SCHEMA_REF_PREFIX) ? ref.slice(SCHEMA_REF_PREFIX.length) : undefined;
}

/** Flattens the properties of an object schema (or of every variant of a oneOf/anyOf of objects) into rows. */
export function fieldRows(schema: JsonSchema, context: FieldContext): FieldRow[] {
  return objectRows(schema, '', context, new Map(), 0);
}

function objectRows(schema: JsonSchema, prefix: string, context: FieldContext, expanded: Map<string, string>, depth: number): FieldRow[] {
  const { properties, required } = mergedProperties(resolve(schema, context), context);
  const rows: FieldRow[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const path = `${prefix}${name}`;
    const link = refName(withoutNull(property)) ?? refName(itemsOf(withoutNull(property)));
    const row: FieldRow = {
      name: path,
      type: typeLabel(property),
      required: required.has(name),
      description: describe(property, context),
      ...(link && context.standalone.has(link) ? { typeLink: link } : {}),
    };
    rows.push(row);
    const nested = nestedObject(property, context);
    if (!nested || depth >= MAX_DEPTH) continue;
    const nestedName = nested.component;
    if (nestedName && context.standalone.has(nestedName)) continue;
    const nestedPath = `${path}${nested.suffix}`;
    const seenAt = nestedName ? expanded.get(nestedName) : undefined;
    if (seenAt) {
      row.description = joinSentences(row.description, `Same fields as ${seenAt}.`);
      continue;
    }
    if (nestedName) expanded.set(nestedName, nestedPath);
    rows.push(...objectRows(nested.schema, `${nestedPath}.`, context, expanded, depth + 1));
  }
  return rows;
}

function resolve(schema: JsonSchema, context: FieldContext): JsonSchema {
  const name = refName(schema);
  return name ? (context.components[name] ?? {}) : schema;
}

function asSchema(value: unknown): JsonSchema | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : undefined;
}

function variantsOf(schema: JsonSchema): JsonSchema[] | undefined {
  const list = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  return list?.map((v) => asSchema(v) ?? {});
}

/**
 * Properties of an object, or the union of its variants' properties (required only when every variant requires it).
 * Variants without properties only constrain the object's own (`oneOf` of which field is required); a property a
 * variant forbids (`not: {}`) is no field of it.
 */
function mergedProperties(schema: JsonSchema, context: FieldContext): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const withFields = variantsOf(schema)
    ?.map((v) => resolve(v, context))
    .filter((v) => asSchema(v.properties) !== undefined);
  const variants = withFields && withFields.length > 0 ? withFields : [schema];
  const properties: Record<string, JsonSchema> = {};
  const requiredCounts = new Map<string, number>();
  for (const variant of variants) {
    for (const [name, property] of Object.entries(asSchema(variant.properties) ?? {})) {
      const previous = properties[name];
      const current = asSchema(property) ?? {};
      if (canonical(current) === '{"not":{}}') continue;
      properties[name] = previous && canonical(previous) !== canonical(current) ? { anyOf: [previous, current] } : current;
    }
    for (const name of Array.isArray(variant.required) ? variant.required : []) {
      requiredCounts.set(String(name), (requiredCounts.get(String(name)) ?? 0) + 1);
    }
  }
  const required = new Set([...requiredCounts].filter(([, count]) => count === variants.length).map(([name]) => name));
  return { properties, required };
}

/** A schema as text whatever the order of its keys, to tell two variants' copies of one field apart from two fields. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const object = asSchema(value);
  if (!object) return JSON.stringify(value);
  return `{${Object.keys(object)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(object[key])}`)
    .join(',')}}`;
}

/** The schema without its `null` alternative (`X | null` → `X`). */
function withoutNull(schema: JsonSchema): JsonSchema {
  const variants = variantsOf(schema);
  if (!variants) return schema;
  const rest = variants.filter((v) => v.type !== 'null');
  return rest.length === 1 && rest[0] ? rest[0] : schema;
}

function itemsOf(schema: JsonSchema): JsonSchema | undefined {
  return schema.type === 'array' ? asSchema(schema.items) : undefined;
}

/** An object (or array of objects) inside a property whose fields deserve rows of their own. */
function nestedObject(property: JsonSchema, context: FieldContext): { schema: JsonSchema; suffix: string; component?: string } | undefined {
  const direct = withoutNull(property);
  const items = itemsOf(direct);
  const [candidate, suffix] = items ? [withoutNull(items), '[]'] : [direct, ''];
  const resolved = resolve(candidate, context);
  const hasFields = asSchema(resolved.properties) !== undefined || (variantsOf(resolved)?.some((v) => asSchema(resolve(v, context).properties)) ?? false);
  if (!hasFields) return undefined;
  const component = refName(candidate);
  return { schema: candidate, suffix, ...(component ? { component } : {}) };
}

/** A short, readable type: `string`, `integer | null`, `Product[]`, `"card" | "paypal"`, `Transaction`. */
export function typeLabel(schema: JsonSchema): string {
  const name = refName(schema);
  if (name) return name;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) {
    // A long list (every error code) would swamp the table; the page says where the values are listed.
    if (schema.enum.length > MAX_LISTED_VALUES) return `${typeof schema.type === 'string' ? schema.type : 'enum'} (one of ${schema.enum.length} values)`;
    return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  }
  const variants = variantsOf(schema);
  if (variants) return [...new Set(variants.map(typeLabel))].join(' | ');
  if (Array.isArray(schema.type)) return schema.type.map(String).join(' | ');
  if (schema.type === 'array') {
    const items = asSchema(schema.items);
    if (!items) return 'array';
    const inner = typeLabel(items);
    return inner.includes(' | ') ? `(${inner})[]` : `${inner}[]`;
  }
  if (typeof schema.type === 'string') return typeof schema.format === 'string' ? `${schema.type} (${schema.format})` : schema.type;
  return 'any';
}

/** The field's description plus its limits, in words. */
function describe(property: JsonSchema, context: FieldContext): string {
  const own = typeof property.description === 'string' ? property.description : undefined;
  const target = resolve(withoutNull(property), context);
  const inherited = typeof target.description === 'string' ? target.description : undefined;
  return joinSentences(own ?? inherited ?? '', limits(withoutNull(property)));
}

function limits(schema: JsonSchema): string {
  const parts: string[] = [];
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  const [minLength, maxLength, minimum, maximum, maxItems] = ['minLength', 'maxLength', 'minimum', 'maximum', 'maxItems'].map(num);
  if (maxLength !== undefined) parts.push(minLength ? `${minLength} to ${maxLength} characters` : `at most ${maxLength} characters`);
  else if (minLength) parts.push(`at least ${minLength} characters`);
  if (minimum !== undefined && maximum !== undefined) parts.push(`from ${minimum} to ${maximum}`);
  else if (minimum !== undefined) parts.push(`at least ${minimum}`);
  else if (maximum !== undefined) parts.push(`at most ${maximum}`);
  if (maxItems !== undefined) parts.push(`at most ${maxItems} items`);
  if (typeof schema.pattern === 'string' && schema.pattern.length <= 40 && schema.format === undefined) parts.push(`matches \`${schema.pattern}\``);
  if (parts.length === 0) return '';
  const text = parts.join(', ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function joinSentences(first: string, second: string): string {
  if (!first) return second;
  if (!second) return first;
  return `${first.replace(/\.?$/, '.')} ${second}`;
}
