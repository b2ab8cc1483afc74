import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SdkManifestSchema } from '@svc/protocol';
import { CARD_FORM_HTML, cardFrameHeadingHtml, cardFrameTitleHtml } from '@svc/sdk-core/frame/markup';
import { LANGUAGES } from '@svc/protocol';
import { directionOf } from '@svc/sdk-core/i18n';
import { CATALOGUES } from '../../i18n';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../env';
import { problemHandler } from '../../http/problem';
import { requestId } from '../../http/request-id';
import { createLogger } from '../../logger';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { provisionTestMerchant } from '../../test/fixtures';
import { sdkAssetsRouter } from './sdk-assets.routes';
import { SdkFileCache } from './sdk-files';

let database: TestDatabase;
let root: string;
let server: http.Server;
let base: string;
let clientId: string;
const SCRIPT = 'window.ServiceFrontEndSDK = {};';
const LOADER = 'window.ServiceFrontEndSDK = { iframe: true };';
/** A lazy script (sdk-core's shared/lazy-script.ts), as the Elements and iframe builds write one beside their bundles. */
const DIALOG_SCRIPT = 'document.currentScript?.dispatchEvent(new CustomEvent("svc-lazy-script"));';
const WIDGET_PAGE = '<!doctype html><title>Payment form</title><script src="widget.js" defer></script><form></form>';
/** As sdk-elements' build writes it: the card form's markup in `en` in place of `<!-- card form -->`. */
const CARD_FRAME_PAGE = `<!doctype html>\n<html lang="en">\n<head>${cardFrameTitleHtml()}<script src="card-frame.js" defer></script></head>\n<body><main>\n${cardFrameHeadingHtml()}\n${CARD_FORM_HTML}\n</main></body>\n</html>\n`;

/** An app serving the SDK files of `root` with the given environment; resolves with its base URL. */
async function serveSdkFiles(env: Record<string, string>): Promise<{ url: string; server: http.Server }> {
  const logger = createLogger({ level: 'silent' });
  const app = express();
  app.use(requestId);
  app.use(sdkAssetsRouter({ env: loadEnv({ LOG_LEVEL: 'silent', ...env }), db: database.db }, root));
  app.use(problemHandler(logger));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

beforeAll(async () => {
  database = await createTestDatabase();
  clientId = (await provisionTestMerchant(database.db, 'Assets', ['https://shop.example.com'])).clientId;
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'sdk-assets-'));
  await fs.mkdir(path.join(root, 'sdk-elements/dist'), { recursive: true });
  await fs.writeFile(path.join(root, 'sdk-elements/dist/sdk.js'), SCRIPT);
  await fs.writeFile(path.join(root, 'sdk-elements/dist/card-frame.html'), CARD_FRAME_PAGE);
  await fs.writeFile(path.join(root, 'sdk-elements/dist/authentication-dialog.js'), DIALOG_SCRIPT);
  await fs.mkdir(path.join(root, 'sdk-iframe/dist'), { recursive: true });
  await fs.writeFile(path.join(root, 'sdk-iframe/dist/sdk.js'), LOADER);
  await fs.writeFile(path.join(root, 'sdk-iframe/dist/widget.js'), 'startWidget();');
  await fs.writeFile(path.join(root, 'sdk-iframe/dist/widget.html'), WIDGET_PAGE);
  ({ url: base, server } = await serveSdkFiles({}));
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
    const manifest = SdkManifestSchema.parse(await (await fetch(`${base}/sdk/manifest.json`)).json());
    expect(manifest.files.elements).toEqual({
      url: 'http://localhost:8080/sdk/elements/1.1.1/sdk.js',
      integrity: `sha384-${createHash('sha384').update(SCRIPT).digest('base64')}`,
    });
    expect(manifest.files.express).toBeUndefined();
    expect((await fetch(`${base}/sdk/express/1.0.0/sdk.js`)).status).toBe(404);
  });

  it('include the lazy scripts a bundle loads, served as the bundles are and listed with their SRI hash', async () => {
    const res = await fetch(`${base}/sdk/elements/1.1.1/authentication-dialog.js`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(DIALOG_SCRIPT);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    // Loaded with `crossorigin="anonymous"` and its integrity from the merchant's page: CORS must allow it.
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const manifest = SdkManifestSchema.parse(await (await fetch(`${base}/sdk/manifest.json`)).json());
    expect(manifest.files['elements-authentication-dialog']).toEqual({
      url: 'http://localhost:8080/sdk/elements/1.1.1/authentication-dialog.js',
      integrity: `sha384-${createHash('sha384').update(DIALOG_SCRIPT).digest('base64')}`,
    });
    expect(manifest.files['express-sandbox-sheet']).toBeUndefined();
  });
});

/** A GET or HEAD with node:http, which leaves the body as sent (fetch would decode it). */
function rawRequest(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject)
      .end();
  });
}

const DECODE: Record<string, (body: Buffer) => Buffer> = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync, identity: (body) => body };

describe('compression (Accept-Encoding)', () => {
  const cases: [string | undefined, string][] = [
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['*', 'br'],
    ['gzip;q=0, identity', 'identity'],
    [undefined, 'identity'],
  ];
  for (const [accept, coding] of cases) {
    it(`Accept-Encoding ${accept ?? '(none)'}: ${coding}, the same bytes once decoded (the SRI hash holds), its own ETag`, async () => {
      const url = `${base}/sdk/locales/he.json`;
      const plain = await rawRequest(url, {});
      const res = await rawRequest(url, accept === undefined ? {} : { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding === 'identity' ? undefined : coding);
      expect(res.headers['vary']).toMatch(/accept-encoding/i);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(DECODE[coding]!(res.body).equals(plain.body)).toBe(true);
      const manifest = SdkManifestSchema.parse(await (await fetch(`${base}/sdk/manifest.json`)).json());
      expect(`sha384-${createHash('sha384').update(DECODE[coding]!(res.body)).digest('base64')}`).toBe(manifest.files['locale-he']!.integrity);
      if (coding !== 'identity') expect(res.headers['etag']).not.toBe(plain.headers['etag']);
      const again = await rawRequest(url, { ...(accept === undefined ? {} : { 'accept-encoding': accept }), 'if-none-match': res.headers['etag']! });
      expect(again.status).toBe(304);
    });
  }

  it('an SDK script: brotli and gzip decode to the file; HEAD answers the same headers without a body', async () => {
    const url = `${base}/sdk/elements/1.1.1/sdk.js`;
    for (const coding of ['br', 'gzip']) {
      const res = await rawRequest(url, { 'accept-encoding': coding });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(DECODE[coding]!(res.body).toString()).toBe(SCRIPT);
      const head = await rawRequest(url, { 'accept-encoding': coding }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers['content-encoding']).toBe(coding);
      expect(head.headers['content-length']).toBe(String(res.body.length));
      expect(head.headers['etag']).toBe(res.headers['etag']);
    }
  });
});

describe("the build's compressed copies (sdk-core/precompress.mjs)", () => {
  const url = () => `${base}/sdk/elements/1.1.1/card-frame.js`;
  const full = () => path.join(root, 'sdk-elements/dist/card-frame.js');
  const write = async (body: string, br: Buffer, gz: Buffer) => {
    await fs.writeFile(full(), body);
    await fs.writeFile(`${full()}.br`, br);
    await fs.writeFile(`${full()}.gz`, gz);
  };

  it('are sent as written, by Accept-Encoding, with their length, Vary, an ETag per coding, and the SRI hash of the file', async () => {
    const body = 'startCardFrame();'.repeat(40);
    // Two gzip members (which gunzip and browsers decode as one body): bytes the service would never make itself.
    const gz = Buffer.concat([zlib.gzipSync(body.slice(0, 100)), zlib.gzipSync(body.slice(100))]);
    const br = zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
    await write(body, br, gz);
    const plain = await rawRequest(url(), {});
    expect(plain.body.toString()).toBe(body);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [coding, copy] of [
      ['br', br],
      ['gzip', gz],
    ] as const) {
      const res = await rawRequest(url(), { 'accept-encoding': coding === 'br' ? 'gzip, deflate, br' : 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.body.equals(copy)).toBe(true);
      expect(Number(res.headers['content-length'])).toBe(copy.length);
      expect(res.headers['vary']).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['etag']).not.toBe(plain.headers['etag']);
      expect((await rawRequest(url(), { 'accept-encoding': coding, 'if-none-match': res.headers['etag']! })).status).toBe(304);
    }
    const manifest = SdkManifestSchema.parse(await (await fetch(`${base}/sdk/manifest.json`)).json());
    expect(manifest.files['elements-card-frame']!.integrity).toBe(`sha384-${createHash('sha384').update(body).digest('base64')}`);
  });

  it('are not sent when they are not of the file as built now (a rebuild that wrote none): the file is compressed instead', async () => {
    const body = 'rebuiltCardFrame();'.repeat(40);
    await write(body, zlib.brotliCompressSync('stale();'), zlib.gzipSync('stale();'));
    for (const coding of ['br', 'gzip']) {
      const res = await rawRequest(url(), { 'accept-encoding': coding });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(DECODE[coding]!(res.body).toString()).toBe(body);
    }
  });
});

describe('the language catalogues', () => {
  it('are published at /sdk/locales/<language>.json for any origin, with an ETag and their SRI hash in the manifest', async () => {
    const res = await fetch(`${base}/sdk/locales/he.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.text();
    expect((JSON.parse(body) as Record<string, string>)['card.number.label']).toBe('מספר כרטיס');
    expect((await fetch(`${base}/sdk/locales/he.json`, { headers: { 'if-none-match': res.headers.get('etag')! } })).status).toBe(304);
    const en = (await (await fetch(`${base}/sdk/locales/en.json`)).json()) as Record<string, string>;
    expect(en['card.number.label']).toBe('Card number');
    const manifest = SdkManifestSchema.parse(await (await fetch(`${base}/sdk/manifest.json`)).json());
    expect(manifest.files['locale-he']).toEqual({
      url: 'http://localhost:8080/sdk/locales/he.json',
      integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
    });
    expect((await fetch(`${base}/sdk/locales/xx.json`)).status).toBe(404);
    expect((await fetch(`${base}/sdk/locales/he`)).status).toBe(404);
  });
});

describe('a rebuild while the service runs (pnpm dev)', () => {
  it('is served from the next request on, even when the file keeps its modification time', async () => {
    const file = { dist: 'rebuilt/sdk.js' };
    await fs.mkdir(path.join(root, 'rebuilt'), { recursive: true });
    const full = path.join(root, file.dist);
    const mtime = new Date('2026-11-24T10:00:00Z');
    await fs.writeFile(full, 'first();');
    await fs.utimes(full, mtime, mtime);
    const files = new SdkFileCache(root);
    expect((await files.load(file))?.body.toString()).toBe('first();');
    // A file read while the build was still writing it carries the same time (the file system's clock is coarse).
    await fs.writeFile(full, 'second build();');
    await fs.utimes(full, mtime, mtime);
    expect((await files.load(file))?.body.toString()).toBe('second build();');
  });

  it('with SDK_FILES_REVALIDATE, the scripts are revalidated on every use instead of kept for a year', async () => {
    const revalidating = await serveSdkFiles({ SDK_FILES_REVALIDATE: 'true' });
    try {
      const res = await fetch(`${revalidating.url}/sdk/elements/1.1.1/sdk.js`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const again = await fetch(`${revalidating.url}/sdk/elements/1.1.1/sdk.js`, { headers: { 'if-none-match': res.headers.get('etag')! } });
      expect(again.status).toBe(304);
    } finally {
      revalidating.server.close();
    }
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

  it("starts in the widget's language (`lang`): lang, dir, its title and heading and the card form's names, before its script runs", async () => {
    const frame = (query: string) =>
      fetch(`${base}/sdk/elements/1.1.1/card-frame.html?clientId=${clientId}&origin=${encodeURIComponent('https://shop.example.com')}${query}`);
    const he = await frame('&lang=he');
    expect(he.status).toBe(200);
    expect(he.headers.get('content-security-policy')).toMatch(/^frame-ancestors https:\/\/shop\.example\.com;/);
    const page = await he.text();
    expect(page).toContain('<html lang="he" dir="rtl">');
    expect(page).toContain('<label for="number">מספר כרטיס</label>');
    expect(page).toContain('aria-label="פרטי כרטיס האשראי"');
    expect(page).toContain(`<title>${CATALOGUES.he['widget.frame']}</title>`);
    expect(page).toContain(`<h1 class="visually-hidden">${CATALOGUES.he['card.form']}</h1>`);
    expect(page).not.toContain('Card number');
    expect(page).not.toContain('Secure card');
    // The inputs stay left to right, and the rest of the built page is kept.
    expect(page).toContain('<div class="control" dir="ltr"><input id="number"');
    expect(page).toContain('<script src="card-frame.js" defer></script>');
    expect(await (await frame('&lang=fr')).text()).toContain('<html lang="fr" dir="ltr">');
    // en, no lang, or one the service does not speak: the built page as it is.
    for (const query of ['', '&lang=en', '&lang=xx', '&lang=he-IL', '&lang=%3Cscript%3E'])
      expect(await (await frame(query)).text(), query).toBe(CARD_FRAME_PAGE);
    // A language changes nothing of who may frame it.
    const refused = await fetch(`${base}/sdk/elements/1.1.1/card-frame.html?clientId=${clientId}&origin=https://evil.example.com&lang=he`);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain('<form');
  });

  it('is refused to an origin that only looks like an allowed one', async () => {
    const lookAlikes = [
      'https://shop.example.com.evil.net',
      'https://evilshop.example.com',
      'https://example.com',
      'https://shop.example.com:8443',
      'http://shop.example.com',
    ];
    for (const origin of lookAlikes) {
      const refused = await fetch(`${base}/sdk/elements/1.1.1/card-frame.html?clientId=${clientId}&origin=${encodeURIComponent(origin)}`);
      expect(refused.status, origin).toBe(403);
      expect(refused.headers.get('content-security-policy'), origin).not.toContain(origin);
    }
  });
});

describe('the iframe SDK', () => {
  const sri = (body: string) => `sha384-${createHash('sha384').update(body).digest('base64')}`;
  const widgetUrl = (query: string) => `${base}/sdk/iframe/1.0.9/widget.html?${query}`;

  it('serves the loader and the widget script, listed in the manifest with their SRI hashes', async () => {
    const loader = await fetch(`${base}/sdk/iframe/1.0.9/sdk.js`);
    expect(loader.status).toBe(200);
    expect(await loader.text()).toBe(LOADER);
    expect(loader.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const manifest = SdkManifestSchema.parse(await (await fetch(`${base}/sdk/manifest.json`)).json());
    expect(manifest.files.iframe).toEqual({ url: 'http://localhost:8080/sdk/iframe/1.0.9/sdk.js', integrity: sri(LOADER) });
    expect(manifest.files['iframe-widget']).toEqual({ url: 'http://localhost:8080/sdk/iframe/1.0.9/widget.js', integrity: sri('startWidget();') });
    expect(manifest.files['iframe-widget-page']).toEqual({ url: 'http://localhost:8080/sdk/iframe/1.0.9/widget.html', integrity: sri(WIDGET_PAGE) });
  });

  it('serves the widget page only to be framed by an origin the client ID allows, with a CSP that lets it call this service only', async () => {
    const ok = await fetch(widgetUrl(`clientId=${clientId}&origin=${encodeURIComponent('https://shop.example.com')}`));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe(WIDGET_PAGE);
    const csp = ok.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^frame-ancestors https:\/\/shop\.example\.com;/);
    expect(csp).toMatch(/connect-src 'self'/);
    expect(csp).toMatch(/script-src 'self'/);
    // It frames the bank's 3-D Secure page in its dialog: the service's, and the processor's and issuer's it leads to.
    expect(csp).toMatch(/frame-src 'self' https:(;|$)/);
    expect(csp).not.toMatch(/unsafe-inline|\*/);
    expect(ok.headers.get('cache-control')).toBe('no-store');
  });

  it('answers an origin not allowed, or an unknown client ID, with a form-less page that tells only that origin why', async () => {
    for (const [query, code] of [
      [`clientId=${clientId}&origin=https://evil.example.com`, 'origin_not_allowed'],
      ['clientId=ck_unknown&origin=https://evil.example.com', 'client_id_unknown'],
    ] as const) {
      const refused = await fetch(widgetUrl(query));
      expect(refused.status).toBe(403);
      const page = await refused.text();
      expect(page).toContain(`<meta name="svc-widget-refusal" content="${code}">`);
      expect(page).not.toContain('<form');
      expect(refused.headers.get('content-security-policy')).toMatch(/^frame-ancestors https:\/\/evil\.example\.com;/);
      expect(refused.headers.get('content-security-policy')).not.toMatch(/connect-src/);
    }
    // Without an exact origin to answer to: the plain refusal, no script.
    for (const query of [`clientId=${clientId}&origin=${encodeURIComponent('https://evil.example.com/path')}`, `clientId=${clientId}`, '']) {
      const refused = await fetch(widgetUrl(query));
      expect(refused.status).toBe(403);
      expect(await refused.text()).not.toContain('script');
    }
  });
});

describe('the refused frames in the consumer language', () => {
  const cardFrame = (query: string) => `${base}/sdk/elements/1.1.1/card-frame.html?${query}`;
  const widgetPage = (query: string) => `${base}/sdk/iframe/1.0.9/widget.html?${query}`;
  const said = (page: string) => ({
    root: /<html[^>]*>/.exec(page)?.[0],
    title: /<title>([^<]*)<\/title>/.exec(page)?.[1],
    text: /<main><p>([^<]*)<\/p><\/main>/.exec(page)?.[1],
  });

  for (const language of LANGUAGES) {
    const t = CATALOGUES[language];
    const shown = { root: `<html lang="${language}" dir="${directionOf(language)}">`, title: t['page.frameRefused'], text: t['page.frameRefused.text'] };

    it(`${language}: the card frame's and the widget page's refusals, from the lang parameter or the browser's languages`, async () => {
      const evil = encodeURIComponent('https://evil.example.com');
      for (const [url, headers] of [
        [cardFrame(`clientId=${clientId}&origin=${evil}&lang=${language}`), {}],
        [cardFrame(`clientId=ck_unknown&origin=${evil}`), { 'accept-language': `${language};q=0.9, xx` }],
        [widgetPage(`clientId=${clientId}&origin=${evil}`), { 'accept-language': language }],
        [widgetPage(`clientId=ck_unknown&origin=${evil}&lang=${language}`), { 'accept-language': 'xx' }],
        [widgetPage(`clientId=${clientId}`), { 'accept-language': language }],
      ] as const) {
        const refused = await fetch(url, { headers });
        expect(refused.status, url).toBe(403);
        const page = await refused.text();
        expect(said(page), url).toEqual(shown);
        expect(page, url).not.toContain('<form');
      }
    });
  }
});

describe('frame-ancestors', () => {
  const frames = (query: string) => [`${base}/sdk/elements/1.1.1/card-frame.html?${query}`, `${base}/sdk/iframe/1.0.9/widget.html?${query}`];

  it('never carries an origin stored before origins were checked (a wildcard, a comma): the frame is refused', async () => {
    const stored = ['https://*.shop.example.com', 'https://a,b.example', 'https://a;b.example'];
    const merchant = await provisionTestMerchant(database.db, 'Old origins', ['https://shop.example.com']);
    await database.sql`update api_credentials set allowed_origins = ${stored} where merchant_id = ${merchant.merchantId} and kind = 'client'`;
    for (const origin of stored) {
      for (const url of frames(`clientId=${merchant.clientId}&origin=${encodeURIComponent(origin)}`)) {
        const refused = await fetch(url);
        expect(refused.status, url).toBe(403);
        expect(refused.headers.get('content-security-policy')).not.toContain(origin);
      }
    }
  });

  it("never carries a refused page's origin that is not a scheme, a host and a port", async () => {
    for (const origin of ['https://a;b.example', 'https://a,b.example', 'https://*.example.com']) {
      const refused = await fetch(`${base}/sdk/iframe/1.0.9/widget.html?clientId=${clientId}&origin=${encodeURIComponent(origin)}`);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-security-policy')).not.toContain(origin);
      expect(await refused.text()).not.toContain('script');
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
    const manifest = SdkManifestSchema.parse(await (await fetch(`${base}/sdk/manifest.json`)).json());
    expect(manifest.files.express).toEqual({
      url: 'http://localhost:8080/sdk/express/1.0.0/sdk.js',
      integrity: `sha384-${createHash('sha384').update(script).digest('base64')}`,
    });
  });
});
