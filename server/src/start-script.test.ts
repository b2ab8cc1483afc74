import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './db/embedded';
import { REPO_ROOT } from './env';
import { createTestDatabase, type TestDatabase } from './test/database';
import { childEnv, finished } from './test/process';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface DemoStatus {
  service: { reachable: boolean };
  credentials: { loaded: boolean; file: string; merchantId: string | null };
}

/** The demo shop's status once it answers, or an error when `pnpm start` exits first. */
async function demoStatus(url: string, child: ReturnType<typeof spawnStart>): Promise<DemoStatus> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pnpm start exited (${child.exitCode}): ${child.output.stdout}${child.output.stderr}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return (await res.json()) as DemoStatus;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function spawnStart(env: Record<string, string>) {
  const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: REPO_ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  return Object.assign(child, { output });
}

// Builds the SDKs and the consumer pages first, as `pnpm start` does.
describe('pnpm start', { timeout: 180_000 }, () => {
  it('gives the demo shop the credentials of the service it started, with a DATA_DIR and a database of its own', async () => {
    const database: TestDatabase = await createTestDatabase();
    cleanups.push(() => database.drop());
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-start-'));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    // Another service's file in that directory: that one belongs to a database this service is not on.
    const othersFile = path.join(dataDir, 'sandbox-credentials.json');
    await fs.writeFile(
      othersFile,
      JSON.stringify({
        merchantId: '00000000-0000-4000-8000-000000000000',
        branchId: '00000000-0000-4000-8000-000000000001',
        apiKey: 'sk_other',
        branchApiKey: 'bk_other',
        clientId: 'ck_other',
        deviceId: 'dev_other',
        hmacSecret: 'whsec_b3RoZXI=',
        database: 'another database',
      }),
      { mode: 0o600 },
    );
    const [port, demoPort] = [await freePort(), await freePort()];
    const started = spawnStart({ DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(port), DEMO_PORT: String(demoPort), LOG_LEVEL: 'warn' });
    try {
      const status = await demoStatus(`http://127.0.0.1:${demoPort}/api/status`, started);
      const [demo] = await database.sql<{ id: string }[]>`select id from merchants where is_sandbox_demo`;
      expect(status.credentials.loaded).toBe(true);
      expect(status.credentials.merchantId).toBe(demo!.id);
      expect(path.dirname(status.credentials.file)).toBe(dataDir);
      expect(status.credentials.file).not.toBe(othersFile);
      expect(status.service.reachable).toBe(true);
      expect(started.output.stdout).toContain(`Credentials      ${status.credentials.file}`);
      // The demo shop's widget, on its DEMO_PORT, may start a session with the demo client ID.
      const { clientId } = JSON.parse(await fs.readFile(status.credentials.file, 'utf8')) as { clientId: string };
      const session = await fetch(`http://127.0.0.1:${port}/sdk/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: `http://localhost:${demoPort}` },
        body: JSON.stringify({ clientId, mode: 'sandbox' }),
      });
      expect(session.status, await session.clone().text()).toBe(200);
    } finally {
      started.kill('SIGTERM');
      await finished(started, 30_000);
    }
  });
});
