import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../env';
import { problemHandler } from '../../http/problem';
import { requestId } from '../../http/request-id';
import { createLogger } from '../../logger';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { provisionTestMerchant } from '../../test/fixtures';
import { sdkAssetsRouter } from './sdk-assets.routes';

let database: TestDatabase;
let root: string;
let server: http.Server;
let base: string;
let clientId: string;
const SCRIPT = 'window.ServiceFrontEndSDK = {};';

beforeAll(async () => {
  database = await createTestDatabase();
  clientId = (await provisionTestMerchant(database.db, 'Assets', ['https://shop.example.com'])).clientId;
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'sdk-assets-'));
  await fs.mkdir(path.join(root, 'sdk-elements/dist'), { recursive: true });
  await fs.writeFile(path.join(root, 'sdk-elements/dist/sdk.js'), SCRIPT);
  await fs.writeFile(path.join(root, 'sdk-elements/dist/card-frame.html'), '<!doctype html><title>Card</title>');
  const env = loadEnv({ LOG_LEVEL: 'silent' });
  const logger = createLogger({ level: 'silent' });
  const app = express();
  app.use(requestId);
  app.use(sdkAssetsRouter({ env, db: database.db }, root));
  app.use(problemHandler(logger));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await fs.rm(root, { recursive: true, force: true });
  await database.drop();
});

describe('SDK scripts', () => {
  it('are served with long cache headers and an ETag, and revalidate with 304', async () => {
    const res = await fetch(`${base}/sdk/elements/1.1.1/sdk.js`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(SCRIPT);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const again = await fetch(`${base}/sdk/elements/1.1.1/sdk.js`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('are listed in manifest.json with their SRI hash; what is not built is absent and answers 404', async () => {
    const manifest = (await (await fetch(`${base}/sdk/manifest.json`)).json()) as { files: Record<string, { url: string; integrity: string }> };
    expect(manifest.files.elements).toEqual({
      url: 'http://localhost:8080/sdk/elements/1.1.1/sdk.js',
      integrity: `sha384-${createHash('sha384').update(SCRIPT).digest('base64')}`,
    });
    expect(manifest.files.express).toBeUndefined();
    expect((await fetch(`${base}/sdk/express/1.0.0/sdk.js`)).status).toBe(404);
  });
});

describe('the card frame page', () => {
  it('may be framed only by an origin the client ID allows', async () => {
    const ok = await fetch(`${base}/sdk/elements/1.1.1/card-frame.html?clientId=${clientId}&origin=${encodeURIComponent('https://shop.example.com')}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toMatch(/^frame-ancestors https:\/\/shop\.example\.com;/);
    expect(ok.headers.get('content-security-policy')).toMatch(/connect-src 'self'/);
    // Nothing inline and no images: the frame styles itself with a constructed style sheet.
    expect(ok.headers.get('content-security-policy')).toMatch(/style-src 'self'(;|$)/);
    expect(ok.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|img-src/);
    for (const query of [`clientId=${clientId}&origin=https://evil.example.com`, 'clientId=ck_unknown&origin=https://shop.example.com', '']) {
      const refused = await fetch(`${base}/sdk/elements/1.1.1/card-frame.html?${query}`);
      expect(refused.status).toBe(403);
    }
  });
});

describe('the Express script', () => {
  it('once built, is served at /sdk/express/1.0.0/sdk.js and listed in the manifest with its SRI hash', async () => {
    const script = 'customElements.define("svc-ecom-sdk-express", class extends HTMLElement {});';
    await fs.mkdir(path.join(root, 'sdk-express/dist'), { recursive: true });
    await fs.writeFile(path.join(root, 'sdk-express/dist/sdk.js'), script);
    const res = await fetch(`${base}/sdk/express/1.0.0/sdk.js`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(script);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const manifest = (await (await fetch(`${base}/sdk/manifest.json`)).json()) as { files: Record<string, { url: string; integrity: string }> };
    expect(manifest.files.express).toEqual({
      url: 'http://localhost:8080/sdk/express/1.0.0/sdk.js',
      integrity: `sha384-${createHash('sha384').update(script).digest('base64')}`,
    });
  });
});
