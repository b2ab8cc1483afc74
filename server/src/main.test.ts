import { existsSync, readFileSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ProvisionedMerchantSchema } from '@svc/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './db/embedded';
import { createTestDatabase } from './test/database';
import { provisionTestMerchant } from './test/fixtures';
import { finished, outputTail, runNode, spawnNode, waitForHealthy } from './test/process';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

async function tempDataDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-main-'));
  await fs.chmod(dir, 0o755);
  dirs.push(dir);
  return dir;
}

describe('start-up failures', () => {
  it('an unreachable database: one clear log line and exit 1, no stack', async () => {
    const result = await runNode(['src/main.ts'], { DATABASE_URL: 'postgres://svc@127.0.0.1:1/svc', PORT: '0' });
    expect(result.code).toBe(1);
    const lines = `${result.stdout}${result.stderr}`.trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { level: string; msg: string };
    expect(line.level).toBe('fatal');
    expect(line.msg).toMatch(/^cannot connect to the database at postgres:\/\/svc@127\.0\.0\.1:1\/svc \(ECONNREFUSED/);
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a malformed DATABASE_URL or other bad setting: the list of problems on stderr and exit 1', async () => {
    const result = await runNode(['src/main.ts'], { DATABASE_URL: 'mysql://root@localhost/shop', PORT: 'http' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^svc: invalid configuration: .*DATABASE_URL must be a postgres:\/\/ URL/);
    expect(result.stderr).toMatch(/PORT /);
  });

  it('production refuses to start on the sandbox processor, before touching the database', async () => {
    const result = await runNode(['src/main.ts'], {
      SVC_MODE: 'production',
      DATABASE_URL: 'postgres://svc@127.0.0.1:1/svc',
      PUBLIC_BASE_URL: 'https://pay.example.com',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^svc: SVC_MODE=production needs a payment processor, and none is configured/);
    expect(result.stderr).not.toMatch(/cannot connect to the database/);
  });

  it('production without a database refuses to start', async () => {
    const result = await runNode(['src/main.ts'], { SVC_MODE: 'production' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/DATABASE_URL is required in production/);
  });
});

describe('what the service tells the tools beside it', { timeout: 120_000 }, () => {
  it("names its demo credentials file to the process that started it (another database's file in its data directory is not it), and records its public base URL for the CLI", async () => {
    const database = await createTestDatabase();
    const dataDir = await tempDataDir();
    // The file of a service on another database, in the same data directory.
    const othersFile = path.join(dataDir, 'sandbox-credentials.json');
    const othersText = `${JSON.stringify({ ...(await provisionElsewhere()), database: 'another database' })}\n`;
    await fs.writeFile(othersFile, othersText, { mode: 0o600 });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = spawnNode(['src/main.ts'], { DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(port), PUBLIC_BASE_URL: base }, { ipc: true });
    const messages: unknown[] = [];
    server.on('message', (message) => messages.push(message));
    try {
      await waitForHealthy(`${base}/healthz`, server);
    } finally {
      server.kill('SIGTERM');
      const stopped = await finished(server, 20_000);
      expect(stopped.code, outputTail(stopped)).toBe(0);
    }
    try {
      expect(messages).toEqual([{ type: 'svc:ready', url: base, sandboxCredentialsFile: expect.any(String) }]);
      const { sandboxCredentialsFile } = messages[0] as { sandboxCredentialsFile: string };
      expect(path.dirname(sandboxCredentialsFile)).toBe(dataDir);
      expect(sandboxCredentialsFile).not.toBe(othersFile);
      expect(readFileSync(othersFile, 'utf8')).toBe(othersText);
      // The named file holds this database's demo merchant.
      const named = ProvisionedMerchantSchema.parse(JSON.parse(readFileSync(sandboxCredentialsFile, 'utf8')));
      const [demo] = await database.sql<{ id: string }[]>`select id from merchants where is_sandbox_demo`;
      expect(named.merchantId).toBe(demo!.id);
      expect(await database.sql`select public_base_url from service_settings`).toEqual([{ public_base_url: base }]);
    } finally {
      await database.drop();
    }
  });
});

/** Credentials of a merchant that exists in no database this test uses. */
async function provisionElsewhere() {
  const elsewhere = await createTestDatabase();
  try {
    return await provisionTestMerchant(elsewhere.db, 'Elsewhere');
  } finally {
    await elsewhere.drop();
  }
}

// Each test starts (and restarts) a whole embedded PostgreSQL cluster: initdb alone can take 20 s on a loaded machine.
describe('embedded database across restarts', { timeout: 120_000 }, () => {
  it('keeps merchants and keys, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = await tempDataDir();
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' };
    const base = `http://127.0.0.1:${port}`;

    const first = spawnNode(['src/main.ts'], env);
    await waitForHealthy(`${base}/healthz`, first);
    const credentialsFile = path.join(dataDir, 'sandbox-credentials.json');
    expect(statSync(credentialsFile).mode & 0o777).toBe(0o600);
    const credentialsText = readFileSync(credentialsFile, 'utf8');
    const credentials = ProvisionedMerchantSchema.parse(JSON.parse(credentialsText));
    const authorised = () => fetch(`${base}/transactions/TNONE000000000`, { headers: { authorization: `Bearer ${credentials.apiKey}` } });
    expect((await authorised()).status).toBe(404);

    first.kill('SIGTERM');
    const stopped = await finished(first, 20_000);
    expect(stopped.code, outputTail(stopped)).toBe(0);
    expect(stopped.stdout).toMatch(/"msg":"stopped"/);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    const second = spawnNode(['src/main.ts'], env);
    try {
      await waitForHealthy(`${base}/healthz`, second);
      expect(readFileSync(credentialsFile, 'utf8')).toBe(credentialsText);
      expect((await authorised()).status).toBe(404);
      expect(second.output.stdout).not.toMatch(/credentials written/);
    } finally {
      second.kill('SIGTERM');
      const secondStopped = await finished(second, 20_000);
      expect(secondStopped.code, outputTail(secondStopped)).toBe(0);
    }
  });

  it('reissues the demo credentials when the file is lost, and the old keys stop working', async () => {
    const dataDir = await tempDataDir();
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port) };
    const base = `http://127.0.0.1:${port}`;
    const credentialsFile = path.join(dataDir, 'sandbox-credentials.json');

    const first = spawnNode(['src/main.ts'], env);
    await waitForHealthy(`${base}/healthz`, first);
    const old = ProvisionedMerchantSchema.parse(JSON.parse(readFileSync(credentialsFile, 'utf8')));
    first.kill('SIGTERM');
    await finished(first, 20_000);
    await fs.rm(credentialsFile);

    const second = spawnNode(['src/main.ts'], env);
    try {
      await waitForHealthy(`${base}/healthz`, second);
      const renewed = ProvisionedMerchantSchema.parse(JSON.parse(readFileSync(credentialsFile, 'utf8')));
      expect(renewed.merchantId).toBe(old.merchantId);
      expect(renewed.hmacSecret).toBe(old.hmacSecret);
      expect(renewed.apiKey).not.toBe(old.apiKey);
      const status = async (key: string) => (await fetch(`${base}/transactions/TNONE000000000`, { headers: { authorization: `Bearer ${key}` } })).status;
      expect(await status(renewed.apiKey)).toBe(404);
      expect(await status(old.apiKey)).toBe(401);
    } finally {
      second.kill('SIGTERM');
      await finished(second, 20_000);
    }
  });
});

describe('after a SIGKILL', { timeout: 120_000 }, () => {
  it('the next start adopts the database the killed server left running, and stops it on shutdown', async () => {
    const dataDir = await tempDataDir();
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port) };
    const base = `http://127.0.0.1:${port}`;

    const killed = spawnNode(['src/main.ts'], env);
    await waitForHealthy(`${base}/healthz`, killed);
    killed.kill('SIGKILL');
    await finished(killed);
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    expect(existsSync(pidFile)).toBe(true); // the database outlived its server

    const next = spawnNode(['src/main.ts'], env);
    await waitForHealthy(`${base}/healthz`, next);
    expect(next.output.stdout).toMatch(/"adopted":true/);
    next.kill('SIGTERM');
    expect((await finished(next, 20_000)).code).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
  });
});
