import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALLBACK_DELIVERY_DEFAULTS } from '@svc/protocol';
import { z } from 'zod';
import { publicRangeProblem, trustedProxiesSetting } from './trusted-proxies';
import { firstHostUrl, hostsOf } from './db/database-url';

/** The workspace root (the folder with pnpm-workspace.yaml): `.data/` lives there unless DATA_DIR says otherwise. */
export const REPO_ROOT = findWorkspaceRoot(path.dirname(fileURLToPath(import.meta.url)));

function findWorkspaceRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().min(1);
const secondsList = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'must be a comma-separated list of whole seconds')
  .transform((v) => v.split(',').map(Number));

/** A `postgres://` URL, of one host or several (`postgres://svc@h1:5432,h2:5433/svc`, db/database-url.ts). */
const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
  .refine((v) => URL.canParse(firstHostUrl(v)) && hostsOf(v).every((host) => host !== ''), 'must be a valid URL');

const EnvSchema = z
  .object({
    SVC_MODE: z.enum(['sandbox', 'production']).default('sandbox'),
    PORT: port.default(8080),
    HOST: z.string().min(1).optional(),
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * The primary. Several hosts with `target_session_attrs=read-write` (a primary and its standbys): after a
     * failover the service finds the new primary by itself (docs/scaling.md#a-standby-that-takes-over).
     */
    DATABASE_URL: postgresUrl.optional(),
    /**
     * A session connection for LISTEN, when DATABASE_URL goes through a transaction-pooling PgBouncer (which keeps no
     * LISTEN): the database itself, or a session-mode pool (docs/operating.md#connection-poolers).
     */
    DATABASE_LISTEN_URL: postgresUrl.optional(),
    /**
     * A streaming replica the transaction list and search and the audit log read from; everything a merchant acts on
     * reads DATABASE_URL (docs/scaling.md#a-read-replica).
     */
    DATABASE_READ_URL: postgresUrl.optional(),
    /**
     * Whether statements are sent prepared (each parsed once per connection). `false` behind a transaction-pooling
     * PgBouncer, whose server connections change from one transaction to the next and keep no client's statements.
     */
    DATABASE_PREPARED_STATEMENTS: booleanText.default(true),
    /**
     * How every instance hears of every committed update (docs/scaling.md#updates-between-instances): `postgres`,
     * LISTEN/NOTIFY on the database, or `nats`, the NATS server at NATS_URL.
     */
    REALTIME_BUS: z.enum(['postgres', 'nats'], { error: 'must be postgres or nats' }).default('postgres'),
    /**
     * The NATS server(s) of REALTIME_BUS=nats: `nats://nats1:4222`, several separated by commas; each may carry a user
     * and password (`nats://user:pass@nats1:4222`), which no message or log line prints.
     */
    NATS_URL: z
      .string()
      .regex(/^(nats|tls):\/\/[^,\s]+(,(nats|tls):\/\/[^,\s]+)*$/, 'must be a nats:// URL (several separated by commas)')
      .optional(),
    DATABASE_POOL_MAX: positiveInt.max(200).default(10),
    /** PostgreSQL ends a statement running longer; PostgreSQL that does not answer at all is given this plus 1 s. */
    DATABASE_STATEMENT_TIMEOUT_MS: positiveInt.min(100).max(600_000).default(10_000),
    /** How long opening a connection may take. */
    DATABASE_CONNECT_TIMEOUT_MS: positiveInt.min(100).max(60_000).default(5_000),
    DATA_DIR: z.string().min(1).default(path.join(REPO_ROOT, '.data')),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    RATE_LIMIT_PER_S: positiveInt.default(100),
    RATE_LIMIT_BURST: positiveInt.default(200),
    /** Seconds a live credential is kept in memory; changes reach every instance at once by NOTIFY. 0: off. */
    CREDENTIAL_CACHE_S: z.coerce.number().int().min(0).max(300).default(5),
    /** Seconds a merchant's processor account (or its having none) is kept in memory; changes reach every instance at once by NOTIFY. 0: off. */
    PROCESSOR_ACCOUNT_CACHE_S: z.coerce.number().int().min(0).max(300).default(5),
    /** How far the JavaScript heap may grow past what was alive at its last full collection, in percent (heap-growth.ts). 0: V8 decides. */
    HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(300).default(100),
    SHUTDOWN_GRACE_MS: positiveInt.default(10_000),
    /**
     * The proxies in front of the service, whose X-Forwarded-For says the client's address (http/client-address.ts):
     * `0` (none: the peer is the client), their number (`1` behind one load balancer), or their addresses and
     * subnets (`10.0.0.5,10.1.0.0/16`). Every per-address limit counts that address.
     */
    TRUST_PROXY: trustedProxiesSetting.default({ hops: 0 }),
    /** Lets TRUST_PROXY name subnets beyond the private networks (a CDN's published ranges): every client there is trusted to name itself. */
    TRUST_PROXY_ALLOW_PUBLIC_RANGES: booleanText.default(false),
    CALLBACK_ALLOW_PRIVATE_NETWORKS: booleanText.default(false),
    /**
     * Sandbox only: the port of the demo shop (`pnpm start` gives the shop and the service the same one). The sandbox's
     * demo client ID allows http://localhost:DEMO_PORT and http://127.0.0.1:DEMO_PORT.
     */
    DEMO_PORT: port.min(1).default(3000),
    /** Sandbox only (`pnpm dev`, which rebuilds the SDKs while the service runs): browsers revalidate the SDK scripts on every use. */
    SDK_FILES_REVALIDATE: booleanText.default(false),
    CALLBACK_RETRY_SCHEDULE_S: secondsList.default([...CALLBACK_DELIVERY_DEFAULTS.retryScheduleS]),
    CALLBACK_GIVE_UP_AFTER_S: positiveInt.default(CALLBACK_DELIVERY_DEFAULTS.giveUpAfterS),
    CALLBACK_TIMEOUT_MS: positiveInt.max(60_000).default(CALLBACK_DELIVERY_DEFAULTS.timeoutS * 1000),
    COMMIT_WINDOW_S: positiveInt.default(600),
    /**
     * A processor call not answered by then counts as unanswered (a payment is then reversed; a capture, commit,
     * re-authorization or release stays in flight for the worker). Below the 60 s lease after which the worker takes
     * a request over, so the two never call at once.
     */
    PROCESSOR_TIMEOUT_MS: positiveInt.min(100).max(50_000).default(30_000),
    /**
     * The default processor account's connector (docs/operating.md#choosing-a-processor): `sandbox` (the test cards;
     * the default in sandbox mode, refused in production), `stripe` or `adyen`. Unset in production: refused at start.
     */
    PROCESSOR: z.enum(['sandbox', 'stripe', 'adyen']).optional(),
    /** The default Stripe account's secret key (`sk_live_…`, `sk_test_…`, or a restricted `rk_…`). */
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, 'must be a Stripe secret key (sk_test_…, sk_live_… or rk_…)')
      .optional(),
    /** The signing secret of the webhook endpoint registered at Stripe (`whsec_…`) for POST /processors/stripe/webhooks. */
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=_]+$/, 'must be a Stripe webhook signing secret (whsec_…)')
      .optional(),
    /** Stripe's API base; tests and the demo point it at localstripe (`http://127.0.0.1:18420`). */
    STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).default('https://api.stripe.com'),
    /** The default Adyen account: its API key, merchant account and the HMAC key of its webhook. */
    ADYEN_API_KEY: z.string().min(10).optional(),
    ADYEN_MERCHANT_ACCOUNT: z.string().min(1).optional(),
    ADYEN_HMAC_KEY: z
      .string()
      .regex(/^([0-9A-Fa-f]{2})+$/, 'must be the hex HMAC key Adyen shows for the webhook')
      .optional(),
    /** The Checkout API v71 base: Adyen's test endpoint by default, your live endpoint prefix in production. */
    ADYEN_CHECKOUT_URL: z.url({ protocol: /^https?$/ }).default('https://checkout-test.adyen.com/v71'),
    /**
     * 32 random bytes, base64 (`openssl rand -base64 32`): encrypts merchants' own processor credentials at rest
     * (AES-256-GCM). Required once a merchant connects an account of its own.
     */
    PROCESSOR_SECRETS_KEY: z
      .string()
      .refine((v) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32, 'must be 32 bytes in base64 (openssl rand -base64 32)')
      .optional(),
    /** A processor request still unfinished this long after it was asked is set aside as `needs_review` (logged as an error). */
    PROCESSOR_REQUEST_GIVE_UP_S: positiveInt.min(600).default(24 * 3600),
    AUTHORIZATION_HOLD_S: positiveInt.default(7 * 24 * 3600),
    /**
     * Card testing: declined card attempts one client address may make in an hour, across payment links and SDK
     * sessions; the next attempt answers 429 too_many_declines until the oldest of them is an hour old. (A link or a
     * session takes 5 declines in 30 minutes of its own.)
     */
    DECLINES_PER_ADDRESS_PER_HOUR: positiveInt.max(10_000).default(20),
    /** The Prometheus scrape (`GET /metrics`) listens here, never on PORT. Unset: no metrics listener. */
    METRICS_PORT: port.optional(),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    /** A background worker whose last tick is older than this makes /readyz answer 503. */
    READINESS_WORKER_STALE_S: positiveInt.max(3600).default(60),
    /** Traces go to this OTLP/HTTP collector (`http://collector:4318`); unset, nothing of OpenTelemetry is loaded. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    /** Link e-mails are sent through this SMTP server (`smtps://user:password@mail.example.com`), from SMTP_FROM. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .refine((v) => URL.canParse(v), 'must be a valid URL')
      .optional(),
    SMTP_FROM: z.string().min(3).optional(),
    /** Each link SMS is posted `{ to, text }` here, signed with SMS_WEBHOOK_SECRET the way callbacks are. */
    SMS_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
    SMS_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{40,}={0,2}$/, 'must be whsec_ followed by base64 (as `svc` prints a callback secret)')
      .optional(),
    /** Waits between attempts of a link message its provider did not accept; after the last, the message is Failed. */
    MESSAGE_RETRY_SCHEDULE_S: secondsList.default([30, 120, 600, 1800]),
  })
  .superRefine((env, ctx) => {
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT: the metrics are never served on the public port' });
    }
    const publicRange = env.TRUST_PROXY_ALLOW_PUBLIC_RANGES ? null : publicRangeProblem(env.TRUST_PROXY);
    if (publicRange) ctx.addIssue({ code: 'custom', path: ['TRUST_PROXY'], message: publicRange });
    if (env.REALTIME_BUS === 'nats' && !env.NATS_URL) {
      ctx.addIssue({ code: 'custom', path: ['NATS_URL'], message: 'is required with REALTIME_BUS=nats (the NATS server the instances share)' });
    }
    if (env.SMTP_URL && !env.SMTP_FROM)
      ctx.addIssue({ code: 'custom', path: ['SMTP_FROM'], message: 'is required with SMTP_URL (the From address of link e-mails)' });
    if (env.SMS_WEBHOOK_URL && !env.SMS_WEBHOOK_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['SMS_WEBHOOK_SECRET'], message: 'is required with SMS_WEBHOOK_URL (each SMS is signed with it)' });
    }
    processorProblems(env).forEach(([variable, message]) => ctx.addIssue({ code: 'custom', path: [variable], message }));
    if (env.SVC_MODE !== 'production') return;
    if (!env.DATABASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: 'is required in production (the embedded database is for sandbox only)' });
    }
    if (env.CALLBACK_ALLOW_PRIVATE_NETWORKS) {
      ctx.addIssue({ code: 'custom', path: ['CALLBACK_ALLOW_PRIVATE_NETWORKS'], message: 'is a sandbox-only setting and must be false in production' });
    }
    if (env.SDK_FILES_REVALIDATE) {
      ctx.addIssue({ code: 'custom', path: ['SDK_FILES_REVALIDATE'], message: 'is a sandbox-only setting and must be false in production' });
    }
    if (!env.PUBLIC_BASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['PUBLIC_BASE_URL'], message: 'is required in production (links and callbacks name it)' });
    } else if (new URL(env.PUBLIC_BASE_URL).protocol !== 'https:') {
      // The hosted page, the card frame and every link a consumer opens are on it: never in the clear.
      ctx.addIssue({ code: 'custom', path: ['PUBLIC_BASE_URL'], message: 'must be an https URL in production (http is for sandbox only)' });
    }
  });

/** What the chosen default processor needs: its account's credentials (the webhook's secret too, in production). */
function processorProblems(env: {
  SVC_MODE: string;
  PROCESSOR?: string | undefined;
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  ADYEN_API_KEY?: string | undefined;
  ADYEN_MERCHANT_ACCOUNT?: string | undefined;
  ADYEN_HMAC_KEY?: string | undefined;
}): [string, string][] {
  const required = (variable: keyof typeof env, why: string): [string, string][] =>
    env[variable] ? [] : [[variable, `is required with PROCESSOR=${env.PROCESSOR} (${why})`]];
  if (env.PROCESSOR === 'stripe') {
    return [
      ...required('STRIPE_SECRET_KEY', "the default Stripe account's secret key"),
      ...(env.SVC_MODE === 'production' ? required('STRIPE_WEBHOOK_SECRET', 'Stripe webhooks are verified with it') : []),
    ];
  }
  if (env.PROCESSOR === 'adyen') {
    return [
      ...required('ADYEN_API_KEY', "the default Adyen account's API key"),
      ...required('ADYEN_MERCHANT_ACCOUNT', "the default Adyen account's merchant account"),
      ...required('ADYEN_HMAC_KEY', 'Adyen webhooks are verified with it'),
    ];
  }
  return [];
}

type ParsedEnv = z.output<typeof EnvSchema>;
export type Env = Omit<ParsedEnv, 'HOST' | 'PUBLIC_BASE_URL'> & {
  HOST: string;
  PUBLIC_BASE_URL: string;
  /** Whether the environment named PUBLIC_BASE_URL (else it is the default, http://localhost:$PORT). */
  PUBLIC_BASE_URL_SET: boolean;
};

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'EnvError';
  }
}

/** The only reader of the process environment. Throws EnvError listing every wrong variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = EnvSchema.safeParse(present);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join('.') || 'environment'} ${issue.message}`));
  }
  const env = result.data;
  const host = env.HOST ?? (env.SVC_MODE === 'production' ? '0.0.0.0' : '127.0.0.1');
  const publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  return { ...env, HOST: host, PUBLIC_BASE_URL: publicBaseUrl, PUBLIC_BASE_URL_SET: env.PUBLIC_BASE_URL !== undefined };
}

/**
 * What a valid configuration may still get wrong, one line each naming the fix: main.ts logs them at start. In
 * production, metrics on every interface (METRICS_HOST=0.0.0.0) reach whoever reaches the host.
 */
export function configurationWarnings(env: Env): string[] {
  const warnings: string[] = [];
  if (env.SVC_MODE === 'production' && env.METRICS_PORT !== undefined && isEveryInterface(env.METRICS_HOST)) {
    warnings.push(
      `METRICS_HOST=${env.METRICS_HOST} serves /metrics and the readiness detail on every interface, the public one included: ` +
        `give it a loopback or internal address, or firewall METRICS_PORT=${env.METRICS_PORT} from the internet`,
    );
  }
  return warnings;
}

/** `0.0.0.0`, `::` (or `[::]`): the unspecified address, which listens on every interface. */
function isEveryInterface(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return isIP(bare) !== 0 && (bare === '0.0.0.0' || /^[0:]+$/.test(bare));
}

/** This process's environment plus `extra`, for a child process (the embedded PostgreSQL) that needs PATH and locale. */
export function childProcessEnvironment(extra: Record<string, string>): Record<string, string | undefined> {
  return { ...process.env, ...extra };
}

/**
 * What the test harness reads from the environment: the database to test against (else a throw-away embedded one),
 * whether to reach it through a transaction-pooling PgBouncer (TEST_PGBOUNCER=1, CONTRIBUTING.md#tests), the test
 * server's log level, and the PATH and HOME a spawned server needs (nothing else, so a developer's DATABASE_URL never
 * leaks into it).
 */
export function testHarnessEnvironment(): {
  databaseUrl: string | undefined;
  throughPgBouncer: boolean;
  logLevel: string | undefined;
  path: string;
  home: string;
} {
  return {
    databaseUrl: process.env.DATABASE_URL,
    throughPgBouncer: ['1', 'true', 'yes'].includes(process.env.TEST_PGBOUNCER ?? ''),
    logLevel: process.env.TEST_LOG_LEVEL,
    path: process.env.PATH ?? '',
    home: process.env.HOME ?? '/tmp',
  };
}
