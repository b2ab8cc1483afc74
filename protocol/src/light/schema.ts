/**
 * A small validator kit for the browser bundles (`@svc/protocol/light`). It mirrors exactly the zod features that the
 * protocol schemas the SDKs need use (strict and stripping objects, enums, literals, integer ranges, code-point string
 * lengths, ISO date-times, URLs), because zod itself adds about 32 KB gzip to a bundle even when tree-shaken. Like every
 * file of src/light it imports neither zod nor the package index, only other light files and `../constants`. The
 * protocol's zod schemas stay the source of truth: `light.test.ts` checks these mirrors against them on many generated
 * inputs.
 */

export class WireIssue extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** Returns the parsed value or throws a WireIssue. */
export type Validator<T> = (input: unknown, path: string) => T;
export type Infer<V> = V extends Validator<infer T> ? T : never;
export type Parsed<T> = { ok: true; value: T } | { ok: false; path: string; message: string };

export function parseWith<T>(validator: Validator<T>, input: unknown): Parsed<T> {
  try {
    return { ok: true, value: validator(input, '') };
  } catch (error) {
    if (error instanceof WireIssue) return { ok: false, path: error.path, message: error.message };
    throw error;
  }
}

function fail(path: string, message: string): never {
  throw new WireIssue(path, message);
}

const join = (path: string, key: string | number): string => (path ? `${path}.${key}` : String(key));
/** zod measures string lengths in code points. */
const codePoints = (value: string): number => [...value].length;

export interface StringRules {
  min?: number;
  max?: number;
  pattern?: RegExp;
  startsWith?: string;
  message?: string;
}

export function string(rules: StringRules = {}): Validator<string> {
  return (input, path) => {
    if (typeof input !== 'string') return fail(path, 'must be a string');
    const why = rules.message;
    if (rules.min !== undefined && codePoints(input) < rules.min) fail(path, why ?? `must be at least ${rules.min} characters`);
    if (rules.max !== undefined && codePoints(input) > rules.max) fail(path, why ?? `must be at most ${rules.max} characters`);
    if (rules.startsWith !== undefined && !input.startsWith(rules.startsWith)) fail(path, why ?? `must start with "${rules.startsWith}"`);
    if (rules.pattern && !rules.pattern.test(input)) fail(path, why ?? 'has the wrong format');
    return input;
  };
}

export interface NumberRules {
  int?: boolean;
  min?: number;
  max?: number;
  message?: string;
}

export function number(rules: NumberRules = {}): Validator<number> {
  return (input, path) => {
    if (typeof input !== 'number' || !Number.isFinite(input)) return fail(path, rules.message ?? 'must be a number');
    if (rules.int && !Number.isSafeInteger(input)) fail(path, rules.message ?? 'must be a whole number');
    if (rules.min !== undefined && input < rules.min) fail(path, rules.message ?? `must be at least ${rules.min}`);
    if (rules.max !== undefined && input > rules.max) fail(path, rules.message ?? `must be at most ${rules.max}`);
    return input;
  };
}

export const boolean: Validator<boolean> = (input, path) => (typeof input === 'boolean' ? input : fail(path, 'must be true or false'));

export const unknown: Validator<unknown> = (input) => input;

/** The input itself when it is `value`, as zod hands it on (-0 stays -0 for the literal 0); `literal(null)` is zod's `z.null()`. */
export function literal<const T extends string | number | boolean | null>(value: T): Validator<T> {
  return (input, path) => (input === value ? (input as T) : fail(path, `must be ${JSON.stringify(value)}`));
}

export function oneOf<const T extends string>(values: readonly T[], message?: string): Validator<T> {
  return (input, path) => ((values as readonly unknown[]).includes(input) ? (input as T) : fail(path, message ?? `must be one of ${values.join(', ')}`));
}

export function optional<T>(validator: Validator<T>): Validator<T | undefined> {
  return (input, path) => (input === undefined ? undefined : validator(input, path));
}

export function nullable<T>(validator: Validator<T>): Validator<T | null> {
  return (input, path) => (input === null ? null : validator(input, path));
}

/** Runs a second validator on the first one's output (zod's `.transform(...).pipe(...)`). */
export function pipe<A, B>(first: Validator<A>, map: (value: A) => unknown, second: Validator<B>): Validator<B> {
  return (input, path) => second(map(first(input, path)), path);
}

export function array<T>(item: Validator<T>): Validator<T[]> {
  return (input, path) => {
    if (!Array.isArray(input)) return fail(path, 'must be a list');
    return input.map((value, index) => item(value, join(path, index)));
  };
}

/** zod's `z.tuple([...])` without a rest: a list of exactly these items, in order. */
export function tuple<const V extends readonly Validator<unknown>[]>(...items: V): Validator<{ -readonly [K in keyof V]: Infer<V[K]> }> {
  return (input, path) => {
    if (!Array.isArray(input) || input.length !== items.length) return fail(path, `must be a list of ${items.length}`);
    return items.map((item, index) => item(input[index], join(path, index))) as { -readonly [K in keyof V]: Infer<V[K]> };
  };
}

type Shape = Record<string, Validator<unknown>>;
/** Keys whose validator accepts undefined become optional, as in zod. */
type ObjectOf<S extends Shape> = {
  [K in keyof S as undefined extends Infer<S[K]> ? never : K]: Infer<S[K]>;
} & {
  [K in keyof S as undefined extends Infer<S[K]> ? K : never]?: Infer<S[K]>;
};

const isObject = (input: unknown): input is Record<string, unknown> => typeof input === 'object' && input !== null && !Array.isArray(input);

/**
 * `strict: true` is zod's `strictObject` (unknown keys are an error); otherwise unknown keys are dropped, as `z.object` does.
 */
export function object<S extends Shape>(shape: S, { strict = false } = {}): Validator<ObjectOf<S>> {
  const keys = Object.keys(shape);
  return (input, path) => {
    if (!isObject(input)) return fail(path, 'must be an object');
    if (strict) {
      for (const key of Object.keys(input)) if (!Object.hasOwn(shape, key)) fail(join(path, key), `is not a known option`);
    }
    const output: Record<string, unknown> = {};
    for (const key of keys) {
      const value = shape[key]!(input[key], join(path, key));
      if (key in input) output[key] = value;
    }
    return output as ObjectOf<S>;
  };
}

/** zod's `z.record(z.string(), z.unknown())`: a plain object only (class instances are refused). */
export const record: Validator<Record<string, unknown>> = (input, path) => {
  if (!isObject(input)) return fail(path, 'must be an object');
  const ctor: unknown = input.constructor;
  if (typeof ctor === 'function') {
    const prototype: unknown = ctor.prototype;
    if (typeof prototype !== 'object' || prototype === null || !Object.hasOwn(prototype, 'isPrototypeOf')) fail(path, 'must be a plain object');
  }
  return { ...input };
};

/** zod's `z.record(z.string(), value)`: a plain object whose every value passes `value` (a `__proto__` key is dropped, as zod does). */
export function recordOf<T>(value: Validator<T>): Validator<Record<string, T>> {
  return (input, path) => {
    const plain = record(input, path);
    const output: Record<string, T> = {};
    for (const key of Object.keys(plain)) if (key !== '__proto__') output[key] = value(plain[key], join(path, key));
    return output;
  };
}

/** The first option that accepts the input wins; the error reported is the one of the option whose discriminator matched. */
export function union<const V extends readonly Validator<unknown>[]>(key: string, options: V): Validator<Infer<V[number]>> {
  return (input, path) => {
    let matched: WireIssue | undefined;
    for (const option of options) {
      try {
        return option(input, path) as Infer<V[number]>;
      } catch (error) {
        if (!(error instanceof WireIssue)) throw error;
        if (!matched && error.path !== join(path, key)) matched = error;
      }
    }
    throw matched ?? new WireIssue(join(path, key), 'has an unknown value');
  };
}

// One regex literal (a literal has no side effects, so a bundle that does not use it drops it): a calendar date
// (leap years included, as zod checks it), then the time of day.
const ISO_DATETIME =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?Z$/;

/** zod's `z.iso.datetime()`: UTC only, seconds required, any fraction. */
export const isoDatetime: Validator<string> = /* @__PURE__ */ string({ pattern: ISO_DATETIME, message: 'must be an ISO 8601 UTC date-time' });

/** zod's `z.url()`: trimmed, parseable by the URL parser; tabs and newlines removed. */
export const url: Validator<string> = (input, path) => {
  if (typeof input !== 'string') return fail(path, 'must be a string');
  const trimmed = input.trim();
  try {
    new URL(trimmed);
  } catch {
    fail(path, 'must be a URL');
  }
  return trimmed.replace(/[\t\n\r]/g, '');
};
