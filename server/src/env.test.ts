import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env';

function problemsOf(source: Record<string, string>): string[] {
  try {
    loadEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  throw new Error('expected loadEnv to fail');
}

describe('loadEnv', () => {
  it('gives the documented defaults for an empty environment', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      SVC_MODE: 'sandbox',
      PORT: 8080,
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: 'http://localhost:8080',
      DATABASE_POOL_MAX: 10,
      RATE_LIMIT_PER_S: 100,
      RATE_LIMIT_BURST: 200,
      CALLBACK_ALLOW_PRIVATE_NETWORKS: false,
      SDK_FILES_REVALIDATE: false,
      CALLBACK_RETRY_SCHEDULE_S: [15, 60, 120, 600, 2000, 32000],
      CALLBACK_GIVE_UP_AFTER_S: 259200,
      COMMIT_WINDOW_S: 600,
      AUTHORIZATION_HOLD_S: 604800,
      PROCESSOR_TIMEOUT_MS: 30_000,
      PROCESSOR_REQUEST_GIVE_UP_S: 86_400,
      HEAP_GROWTH_PERCENT: 100,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATA_DIR).toMatch(/\.data$/);
    expect(env.REALTIME_BUS).toBe('postgres');
    expect(env.NATS_URL).toBeUndefined();
  });

  it('takes the nats update bus with its server, and refuses it without one or with a URL that is not nats://', () => {
    const env = loadEnv({ REALTIME_BUS: 'nats', NATS_URL: 'nats://nats1:4222,nats://nats2:4222' });
    expect(env).toMatchObject({ REALTIME_BUS: 'nats', NATS_URL: 'nats://nats1:4222,nats://nats2:4222' });
    expect(problemsOf({ REALTIME_BUS: 'nats' })).toEqual(['NATS_URL is required with REALTIME_BUS=nats (the NATS server the instances share)']);
    expect(problemsOf({ REALTIME_BUS: 'nats', NATS_URL: 'http://nats1:4222' })).toEqual([expect.stringMatching(/^NATS_URL must be a nats:\/\/ URL/)]);
    expect(problemsOf({ REALTIME_BUS: 'kafka' })).toEqual(['REALTIME_BUS must be postgres or nats']);
  });

  it("takes the heap's growth from 0 (V8 decides) to 300 %, and refuses anything else", () => {
    expect(loadEnv({ HEAP_GROWTH_PERCENT: '0' }).HEAP_GROWTH_PERCENT).toBe(0);
    expect(loadEnv({ HEAP_GROWTH_PERCENT: '300' }).HEAP_GROWTH_PERCENT).toBe(300);
    expect(problemsOf({ HEAP_GROWTH_PERCENT: '301' })).toEqual([expect.stringMatching(/^HEAP_GROWTH_PERCENT /)]);
    expect(problemsOf({ HEAP_GROWTH_PERCENT: '-1' })).toEqual([expect.stringMatching(/^HEAP_GROWTH_PERCENT /)]);
    expect(problemsOf({ HEAP_GROWTH_PERCENT: 'half' })).toEqual([expect.stringMatching(/^HEAP_GROWTH_PERCENT /)]);
  });

  it('coerces numbers and booleans and treats empty strings as unset', () => {
    const env = loadEnv({ PORT: '9090', CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', DATABASE_URL: '', PUBLIC_BASE_URL: 'https://pay.example.com/' });
    expect(env.PORT).toBe(9090);
    expect(env.CALLBACK_ALLOW_PRIVATE_NETWORKS).toBe(true);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PUBLIC_BASE_URL).toBe('https://pay.example.com');
  });

  it('names every wrong variable at once', () => {
    const problems = problemsOf({ PORT: 'eighty', SVC_MODE: 'staging', DATABASE_URL: 'mysql://db/x', CALLBACK_RETRY_SCHEDULE_S: '15, 60' });
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/^PORT /m);
    expect(problems.join('\n')).toMatch(/^SVC_MODE /m);
    expect(problems.join('\n')).toMatch(/^DATABASE_URL must be a postgres:\/\/ URL/m);
    expect(problems.join('\n')).toMatch(/^CALLBACK_RETRY_SCHEDULE_S must be a comma-separated list/m);
  });

  it('takes a database URL of several hosts (a primary and its standbys), and a read replica', () => {
    const env = loadEnv({
      DATABASE_URL: 'postgres://svc:pw@db1:5432,db2:5433/svc?target_session_attrs=read-write',
      DATABASE_READ_URL: 'postgres://svc:pw@replica:5432/svc',
    });
    expect(env.DATABASE_URL).toBe('postgres://svc:pw@db1:5432,db2:5433/svc?target_session_attrs=read-write');
    expect(env.DATABASE_READ_URL).toBe('postgres://svc:pw@replica:5432/svc');
    expect(problemsOf({ DATABASE_URL: 'postgres://svc@db1:5432,/svc' })).toEqual([expect.stringMatching(/^DATABASE_URL must be a valid URL/)]);
    expect(problemsOf({ DATABASE_READ_URL: 'replica:5432' })).toEqual([expect.stringMatching(/^DATABASE_READ_URL must be a postgres:\/\/ URL/)]);
  });

  it('refuses production without a database, a public URL, or with sandbox-only settings', () => {
    const problems = problemsOf({ SVC_MODE: 'production', CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', SDK_FILES_REVALIDATE: 'true' });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^DATABASE_URL is required in production/),
        expect.stringMatching(/^CALLBACK_ALLOW_PRIVATE_NETWORKS is a sandbox-only setting/),
        expect.stringMatching(/^SDK_FILES_REVALIDATE is a sandbox-only setting/),
        expect.stringMatching(/^PUBLIC_BASE_URL is required in production/),
      ]),
    );
  });

  it('refuses an http PUBLIC_BASE_URL in production (links, QR codes and the card frame would travel in the clear), not in sandbox', () => {
    const production = { SVC_MODE: 'production', DATABASE_URL: 'postgres://svc@db:5432/svc' };
    expect(problemsOf({ ...production, PUBLIC_BASE_URL: 'http://pay.example.com' })).toEqual([
      'PUBLIC_BASE_URL must be an https URL in production (http is for sandbox only)',
    ]);
    expect(problemsOf({ ...production, PUBLIC_BASE_URL: 'HTTP://pay.example.com' })).toHaveLength(1);
    expect(loadEnv({ PUBLIC_BASE_URL: 'http://pay.example.com' }).PUBLIC_BASE_URL).toBe('http://pay.example.com');
  });

  it('accepts a complete production configuration and listens on all interfaces there', () => {
    const env = loadEnv({ SVC_MODE: 'production', DATABASE_URL: 'postgres://svc@db:5432/svc', PUBLIC_BASE_URL: 'https://pay.example.com' });
    expect(env.HOST).toBe('0.0.0.0');
  });

  it('rejects a port out of range and a boolean that is not one', () => {
    expect(problemsOf({ PORT: '70000' })[0]).toMatch(/^PORT /);
    expect(problemsOf({ CALLBACK_ALLOW_PRIVATE_NETWORKS: 'maybe' })[0]).toBe('CALLBACK_ALLOW_PRIVATE_NETWORKS must be true or false');
  });

  it('refuses PROCESSOR=stripe without its key, naming the variable (and the webhook secret in production)', () => {
    expect(problemsOf({ PROCESSOR: 'stripe' })).toEqual([expect.stringMatching(/^STRIPE_SECRET_KEY is required with PROCESSOR=stripe/)]);
    const production = { SVC_MODE: 'production', DATABASE_URL: 'postgres://svc@db/svc', PUBLIC_BASE_URL: 'https://pay.example.com', PROCESSOR: 'stripe' };
    expect(problemsOf(production)).toEqual([
      expect.stringMatching(/^STRIPE_SECRET_KEY is required/),
      expect.stringMatching(/^STRIPE_WEBHOOK_SECRET is required/),
    ]);
    expect(problemsOf({ PROCESSOR: 'adyen', ADYEN_API_KEY: 'AQE1234567890' }).map((p) => p.split(' ')[0])).toEqual([
      'ADYEN_MERCHANT_ACCOUNT',
      'ADYEN_HMAC_KEY',
    ]);
  });

  it('takes PROCESSOR_SECRETS_KEY only as 32 bytes in base64', () => {
    expect(problemsOf({ PROCESSOR_SECRETS_KEY: Buffer.alloc(16).toString('base64') })).toEqual([
      expect.stringMatching(/^PROCESSOR_SECRETS_KEY must be 32 bytes/),
    ]);
    expect(loadEnv({ PROCESSOR_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') }).PROCESSOR_SECRETS_KEY).toBeDefined();
  });
});
