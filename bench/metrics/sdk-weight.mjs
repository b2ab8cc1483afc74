// Metric 6: the weight of every served SDK script and frame: the bytes a browser downloads, gzip (level 9) and
// brotli (quality 11) compressed with node:zlib. Fetched from the running server; a 404 means "not built yet".
// Besides the known paths, everything `/sdk/manifest.json` lists is measured too; a frame (HTML) counts with the
// same-origin scripts and stylesheets it loads.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { MERCHANT_ORIGIN } from '../merchant.mjs';

const KB = 1024;
/** The assets with a goal; `{frame}` is the card frame's query (a client ID and an origin it allows). */
export const SDK_ASSETS = [
  { name: 'Elements sdk.js', paths: ['/sdk/elements/1.1.1/sdk.js'], goalGzipBytes: 25 * KB },
  { name: 'card frame (page + its scripts)', paths: ['/sdk/elements/1.1.1/card-frame.html{frame}'], goalGzipBytes: 20 * KB },
  { name: 'Express sdk.js', paths: ['/sdk/express/1.0.0/sdk.js'], goalGzipBytes: 18 * KB },
  { name: 'iframe loader sdk.js', paths: ['/sdk/iframe/1.0.9/sdk.js'], goalGzipBytes: 5 * KB },
  { name: 'iframe widget page (page + its scripts)', paths: ['/sdk/iframe/1.0.9/widget.html{frame}'], goalGzipBytes: 25 * KB },
  // `{payLink}`: the hosted payment page of a new 12.50 USD transaction with one product (the card form and wallets showing).
  { name: 'hosted payment page (page + its script and style)', paths: ['{payLink}'], goalGzipBytes: 20 * KB },
];

/** A pending transaction's hosted page path, made with the bench merchant's key. */
async function payLinkPath(base, merchant) {
  const response = await fetch(new URL('/transactions/init', base), {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 12.5, currency: 'USD', products: [{ name: 'Lamp', quantity: 1, amount: 12.5 }] }),
  });
  if (!response.ok) return '/pay/not-created';
  return new URL((await response.json()).transactionPage.qrURL).pathname;
}

export function compressedSizes(buffer) {
  return {
    rawBytes: buffer.length,
    gzipBytes: gzipSync(buffer, { level: 9 }).length,
    brotliBytes: brotliCompressSync(buffer, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buffer.length } }).length,
  };
}

async function fetchBody(base, path) {
  const response = await fetch(new URL(path, base));
  if (!response.ok) return null;
  return { buffer: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type') ?? '' };
}

/** A frame's HTML plus the same-origin scripts and stylesheets it references. */
async function frameWeight(base, path, html) {
  const parts = [{ path, ...compressedSizes(html) }];
  const text = html.toString('utf8');
  const refs = [
    ...text.matchAll(/<script[^>]*\ssrc="([^"]+)"|<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"|<link[^>]*href="([^"]+)"[^>]*rel="stylesheet"/g),
  ].map((m) => m[1] ?? m[2] ?? m[3]);
  for (const ref of refs) {
    const url = new URL(ref, new URL(path, base));
    if (url.origin !== new URL(base).origin) continue;
    const body = await fetchBody(base, url.pathname);
    if (body) parts.push({ path: url.pathname, ...compressedSizes(body.buffer) });
  }
  return parts;
}

/**
 * @typedef {{ path: string, rawBytes: number, gzipBytes: number, brotliBytes: number }} Part
 * @typedef {{ name: string, path: string, built: boolean, parts: Part[], rawBytes?: number, gzipBytes?: number, brotliBytes?: number, goalGzipBytes: number | null }} AssetWeight
 */

/**
 * @param {string} base
 * @param {string} name
 * @param {string[]} paths
 * @param {number | null} goalGzipBytes
 * @returns {Promise<AssetWeight>}
 */
async function measureOne(base, name, paths, goalGzipBytes) {
  for (const path of paths) {
    const body = await fetchBody(base, path);
    if (!body) continue;
    const parts = body.type.includes('html') ? await frameWeight(base, path, body.buffer) : [{ path, ...compressedSizes(body.buffer) }];
    const sum = (key) => parts.reduce((n, p) => n + p[key], 0);
    return {
      name,
      path: path.split('?')[0],
      built: true,
      parts,
      rawBytes: sum('rawBytes'),
      gzipBytes: sum('gzipBytes'),
      brotliBytes: sum('brotliBytes'),
      goalGzipBytes,
    };
  }
  return { name, path: paths[0].split('?')[0], built: false, parts: [], goalGzipBytes };
}

/** Paths listed in the manifest, whatever its shape (an object keyed by path or name, or an array of entries). */
function manifestPaths(manifest) {
  const found = new Set();
  const visit = (value, key) => {
    if (typeof value === 'string' && /\.(m?js|html|css)$/.test(value)) found.add(value);
    if (typeof key === 'string' && /\.(m?js|html|css)$/.test(key)) found.add(key);
    if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, k);
  };
  visit(manifest);
  return [...found].map((p) => (p.startsWith('/') || /^https?:/.test(p) ? p : `/sdk/${p}`));
}

export async function measureSdkWeight({ server, merchant }) {
  const frameQuery = `?${new URLSearchParams({ clientId: merchant.clientId, origin: MERCHANT_ORIGIN })}`;
  const payLink = await payLinkPath(server.url, merchant);
  const results = [];
  for (const asset of SDK_ASSETS) {
    const one = await measureOne(
      server.url,
      asset.name,
      asset.paths.map((p) => p.replace('{frame}', frameQuery).replace('{payLink}', payLink)),
      asset.goalGzipBytes,
    );
    // The report names the page's route, not this run's random link.
    if (asset.paths[0] === '{payLink}' && one.built) one.path = one.parts[0].path = '/pay/{linkId}';
    results.push(one);
  }
  const manifest = await fetchBody(server.url, '/sdk/manifest.json');
  if (manifest) {
    const known = new Set(results.filter((r) => r.built).flatMap((r) => r.parts.map((p) => new URL(p.path, server.url).pathname)));
    for (const path of manifestPaths(JSON.parse(manifest.buffer.toString('utf8')))) {
      const pathname = new URL(path, server.url).pathname;
      if (known.has(pathname)) continue;
      const one = await measureOne(server.url, pathname, [pathname], null);
      if (one.built) results.push(one);
    }
  }
  return { assets: results, manifest: Boolean(manifest) };
}
