import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Keys whose values never reach a log line: credentials, card data, and the consumer's personal data
 * (billing and shipping details, e-mail, phone). Matched case-insensitively at any depth.
 */
const SENSITIVE_KEY =
  /^(authorization|cookie|set-cookie|x-api-key|api[-_]?key|branchapikey|secret|hmacsecret|password|token|sessiontoken|idempotency-key|card|cardnumber|number|pan|cvc|cvv|expmonth|expyear|billing.*|shipping.*|email|phone|mobilephone|street|zipcode|postalcode|addressline\d?|fullname|firstname|lastname|deviceid|clientid)$/i;

/** Values that look like a card number or one of our credentials, wherever they appear in text. */
const SENSITIVE_TEXT = /\b(?:\d[ -]?){12,18}\d\b|\b(?:sk|bk|dev|ck|whsec|sess)_[A-Za-z0-9+/=_-]{8,}/g;

/**
 * The parameters drizzle appends to a failed query's message (`Failed query: …\nparams: …`): the values a request
 * wrote, which can be a consumer's e-mail or phone. The query text stays; its values go.
 */
const QUERY_PARAMS = /\nparams: [^\n]*/g;

export const REDACTED = '[redacted]';

function scrubText(text: string): string {
  return text.replace(QUERY_PARAMS, `\nparams: ${REDACTED}`).replace(SENSITIVE_TEXT, REDACTED);
}

/** Deep copy of a log payload with sensitive keys and card- or key-shaped text replaced. */
export function redactSensitive(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[depth]';
  if (typeof value === 'string') return scrubText(value);
  if (Array.isArray(value)) return value.map((item) => redactSensitive(item, depth + 1));
  if (value instanceof Error) {
    // Formatters run before serializers, so the error is flattened here; its cause (the driver's own error behind a
    // drizzle error) and code come along.
    const { code } = value as { code?: unknown };
    return {
      type: value.name,
      message: scrubText(value.message),
      stack: value.stack === undefined ? undefined : scrubText(value.stack),
      ...(typeof code === 'string' ? { code } : {}),
      ...(value.cause === undefined ? {} : { cause: redactSensitive(value.cause, depth + 1) }),
    };
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = SENSITIVE_KEY.test(key) ? REDACTED : redactSensitive(inner, depth + 1);
    }
    return out;
  }
  return value;
}

export interface LoggerOptions {
  level: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: DestinationStream;
  /** The trace id of the span running now (tracing on): written into each line as `traceId`. */
  traceId?: () => string | undefined;
}

export function createLogger({ level, destination, traceId }: LoggerOptions): Logger {
  return pino(
    {
      level,
      ...(traceId
        ? {
            mixin: () => {
              const id = traceId();
              return id ? { traceId: id } : {};
            },
          }
        : {}),
      base: { service: 'svc' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // `formatters.log` below already turned errors into plain objects (with their cause, where drivers put the
      // database's own message); pino's error serializer would only rename their type to "Object".
      serializers: { err: (err: unknown) => err },
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => redactSensitive(object) as Record<string, unknown>,
      },
      hooks: {
        // Messages are text too: a card number or key pasted into a message is scrubbed as well.
        logMethod(args, method) {
          const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg));
          method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
