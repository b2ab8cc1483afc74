import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { createLogger } from '../../logger';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { bootstrapSandbox, demoShopOrigins, SANDBOX_CREDENTIALS_FILE } from './sandbox-bootstrap';

let first: TestDatabase;
let second: TestDatabase;
let third: TestDatabase;
let dataDir: string;
const logger = createLogger({ level: 'silent' });

beforeAll(async () => {
  [first, second, third] = await Promise.all([createTestDatabase({ max: 2 }), createTestDatabase({ max: 2 }), createTestDatabase({ max: 2 })]);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-bootstrap-'));
});

afterAll(async () => {
  await Promise.all([first?.drop(), second?.drop(), third?.drop()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { merchantId: string; apiKey: string; database?: string };

describe('bootstrapSandbox with one data directory', () => {
  it("two servers on different databases: the second never overwrites the first's credentials file", async () => {
    const one = await bootstrapSandbox(first.db, {
      dataDir,
      clock: systemClock,
      logger,
      publicBaseUrl: 'http://localhost:8080',
      demoOrigins: demoShopOrigins(3000),
    });
    expect(one.outcome).toBe('created');
    expect(one.path).toBe(path.join(dataDir, SANDBOX_CREDENTIALS_FILE));
    const written = readJson(one.path);
    expect(written.database).toEqual(expect.stringContaining(first.name));

    const two = await bootstrapSandbox(second.db, {
      dataDir,
      clock: systemClock,
      logger,
      publicBaseUrl: 'http://localhost:8080',
      demoOrigins: demoShopOrigins(3000),
    });
    expect(two.outcome).toBe('created');
    expect(two.path).not.toBe(one.path);
    // The first server's file is as it wrote it: the demo still talks to the first server's merchant.
    expect(readJson(one.path)).toEqual(written);
    expect(readJson(two.path).database).toEqual(expect.stringContaining(second.name));
    expect(readJson(two.path).merchantId).not.toBe(written.merchantId);

    // Each server, started again, finds its own file unchanged.
    expect(
      (await bootstrapSandbox(first.db, { dataDir, clock: systemClock, logger, publicBaseUrl: 'http://localhost:8080', demoOrigins: demoShopOrigins(3000) }))
        .outcome,
    ).toBe('unchanged');
    expect(
      (await bootstrapSandbox(second.db, { dataDir, clock: systemClock, logger, publicBaseUrl: 'http://localhost:8080', demoOrigins: demoShopOrigins(3000) }))
        .outcome,
    ).toBe('unchanged');
    expect(readJson(one.path)).toEqual(written);
    expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe("the demo shop's origins (DEMO_PORT)", () => {
  const clientOrigins = async (database: TestDatabase) =>
    (
      await database.sql<{ allowed_origins: string[] }[]>`
      select c.allowed_origins from api_credentials c join merchants m on m.id = c.merchant_id
      where m.is_sandbox_demo and c.kind = 'client' and c.revoked_at is null`
    ).map((row) => row.allowed_origins);
  const audited = async (database: TestDatabase) =>
    database.sql<{ action: string; actor_kind: string; details: { origin?: string } }[]>`
      select a.action, a.actor_kind, a.details from audit_log a join merchants m on m.id = a.merchant_id where m.is_sandbox_demo order by a.id`;

  it('a sandbox on another DEMO_PORT allows the shop on that port; one provisioned for :3000 gets it added, audited, its keys kept', async () => {
    const ownDir = mkdtempSync(path.join(os.tmpdir(), 'svc-bootstrap-port-'));
    try {
      const start = (port: number) =>
        bootstrapSandbox(third.db, { dataDir: ownDir, clock: systemClock, logger, publicBaseUrl: 'http://localhost:8080', demoOrigins: demoShopOrigins(port) });
      expect(demoShopOrigins(4100)).toEqual(['http://localhost:4100', 'http://127.0.0.1:4100']);
      // The data of an earlier start on the default port.
      expect((await start(3000)).outcome).toBe('created');
      const file = readJson(path.join(ownDir, SANDBOX_CREDENTIALS_FILE));
      expect(await clientOrigins(third)).toEqual([demoShopOrigins(3000)]);

      const moved = await start(4100);
      expect(moved.outcome).toBe('unchanged');
      expect(readJson(moved.path)).toEqual(file);
      expect(await clientOrigins(third)).toEqual([[...demoShopOrigins(3000), ...demoShopOrigins(4100)]]);
      const added = (await audited(third)).filter((entry) => entry.action === 'allowed_origin.added');
      expect(added.map((entry) => [entry.actor_kind, entry.details.origin])).toEqual(demoShopOrigins(4100).map((origin) => ['operator', origin]));

      // Started again on that port: nothing more to add.
      await start(4100);
      expect((await audited(third)).filter((entry) => entry.action === 'allowed_origin.added')).toHaveLength(2);
    } finally {
      rmSync(ownDir, { recursive: true, force: true });
    }
  });
});

describe('bootstrapSandbox by several servers starting at once on one database', () => {
  it("provisions one demo merchant, and every server's file names it", async () => {
    const fresh = await createTestDatabase({ max: 8 });
    const dirs = Array.from({ length: 4 }, () => mkdtempSync(path.join(os.tmpdir(), 'svc-bootstrap-')));
    try {
      const results = await Promise.all(
        dirs.map((dir) =>
          bootstrapSandbox(fresh.db, { dataDir: dir, clock: systemClock, logger, publicBaseUrl: 'http://localhost:8080', demoOrigins: demoShopOrigins(3000) }),
        ),
      );
      expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
      const demos = await fresh.sql<{ id: string }[]>`select id from merchants where is_sandbox_demo`;
      expect(demos).toHaveLength(1);
      // One after the other: the first creates it, the others find it and reissue its keys.
      expect(results.map((r) => readJson(r.path).merchantId)).toEqual(Array(4).fill(demos[0]!.id));
    } finally {
      await fresh.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
