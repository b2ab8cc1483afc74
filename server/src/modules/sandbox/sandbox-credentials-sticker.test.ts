import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ProvisionedMerchantSchema } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { bootstrapSandbox, demoShopOrigins, SANDBOX_CREDENTIALS_FILE } from './sandbox-bootstrap';

let database: TestDatabase;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-bootstrap-'));
});
afterAll(async () => {
  await database?.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const file = () => path.join(dataDir, SANDBOX_CREDENTIALS_FILE);
const readFile = async () => ProvisionedMerchantSchema.parse(JSON.parse(await fs.readFile(file(), 'utf8')));
const bootstrap = (publicBaseUrl = 'http://localhost:8080') =>
  bootstrapSandbox(database.db, {
    dataDir,
    clock: { now: () => new Date() },
    logger: createLogger({ level: 'silent' }),
    publicBaseUrl,
    demoOrigins: demoShopOrigins(3000),
  });

describe('the sandbox credentials file and the sticker URL', () => {
  it("carries the demo device's sticker URL, and gains it (keys unchanged) when written by an older version or for another origin", async () => {
    expect((await bootstrap()).outcome).toBe('created');
    const first = await readFile();
    expect(first.stickerUrl).toMatch(/^http:\/\/localhost:8080\/s\/[0-9a-f]{32}$/);
    expect((await bootstrap()).outcome).toBe('unchanged');

    const { stickerUrl: _dropped, ...older } = first;
    await fs.writeFile(file(), JSON.stringify(older));
    expect((await bootstrap()).outcome).toBe('updated');
    expect(await readFile()).toEqual(first);

    expect((await bootstrap('https://pay.example.com')).outcome).toBe('updated');
    const moved = await readFile();
    expect(moved.stickerUrl).toBe(first.stickerUrl.replace('http://localhost:8080', 'https://pay.example.com'));
    expect(moved.apiKey).toBe(first.apiKey);
  });
});
