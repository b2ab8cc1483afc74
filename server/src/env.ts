import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

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

const EnvSchema = z
  .object({
    SVC_MODE: z.enum(['sandbox', 'production']).default('sandbox'),
    PORT: port.default(8080),
    HOST: z.string().min(1).optional(),
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .refine((v) => URL.canParse(v), 'must be a valid URL')
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
    SHUTDOWN_GRACE_MS: positiveInt.default(10_000),
    TRUST_PROXY: booleanText.default(false),
    CALLBACK_ALLOW_PRIVATE_NETWORKS: booleanText.default(false),
    /** Sandbox only (`pnpm dev`, which rebuilds the SDKs while the service runs): browsers revalidate the SDK scripts on every use. */
    SDK_FILES_REVALIDATE: booleanText.default(false),
    CALLBACK_RETRY_SCHEDULE_S: secondsList.default([15, 60, 120, 600, 2000, 32000]),
    CALLBACK_GIVE_UP_AFTER_S: positiveInt.default(3 * 24 * 3600),
    CALLBACK_TIMEOUT_MS: positiveInt.max(60_000).default(10_000),
    COMMIT_WINDOW_S: positiveInt.default(600),
    /**
     * A processor call not answered by then counts as unanswered (a payment is then reversed; a capture, commit,
     * re-authorization or release stays in flight for the worker). Below the 60 s lease after which the worker takes
     * a request over, so the two never call at once.
     */
    PROCESSOR_TIMEOUT_MS: positiveInt.min(100).max(50_000).default(30_000),
    /** A processor request still unfinished this long after it was asked is set aside as `needs_review` (logged as an error). */
    PROCESSOR_REQUEST_GIVE_UP_S: positiveInt.min(600).default(24 * 3600),
    AUTHORIZATION_HOLD_S: positiveInt.default(7 * 24 * 3600),
  })
  .superRefine((env, ctx) => {
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
    }
  });

type ParsedEnv = z.output<typeof EnvSchema>;
export type Env = Omit<ParsedEnv, 'HOST' | 'PUBLIC_BASE_URL'> & { HOST: string; PUBLIC_BASE_URL: string };

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
  return { ...env, HOST: host, PUBLIC_BASE_URL: publicBaseUrl };
}

/** This process's environment plus `extra`, for a child process (the embedded PostgreSQL) that needs PATH and locale. */
export function childProcessEnvironment(extra: Record<string, string>): Record<string, string | undefined> {
  return { ...process.env, ...extra };
}

/**
 * What the test harness reads from the environment: the database to test against (else a throw-away embedded one),
 * the test server's log level, and the PATH and HOME a spawned server needs (nothing else, so a developer's
 * DATABASE_URL never leaks into it).
 */
export function testHarnessEnvironment(): { databaseUrl: string | undefined; logLevel: string | undefined; path: string; home: string } {
  return { databaseUrl: process.env.DATABASE_URL, logLevel: process.env.TEST_LOG_LEVEL, path: process.env.PATH ?? '', home: process.env.HOME ?? '/tmp' };
}
