// The pages metric 10 loads besides the service's own: a minimal merchant checkout per SDK (the demo shop's
// embedding, without its shop), and the references. One node:http server on 127.0.0.1 serves both, under two names:
// the merchant pages as http://localhost:<port> (another site than the service, as a real shop is, so the service's
// frames are cross-site, out-of-process frames), the reference files as http://127.0.0.1:<port> (the service's own
// host). A reference file has the byte size of the service's file it stands for and is sent with the same headers
// the service sent that file with (cache, type, CORS, CSP; the service compresses nothing, so neither does this);
// its content is a comment of that size and the few statements a widget needs at the least: the script puts the frame
// in the page, the frame's script puts the field in the frame.
import { createHash } from 'node:crypto';
import http from 'node:http';

/** The headers of a service response that are not copied onto the reference's (per response, or the transport's). */
const NOT_COPIED = new Set([
  'date',
  'etag',
  'x-request-id',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
  'last-modified',
]);

export const SURFACES = /** @type {const} */ (['elements', 'iframe', 'express', 'hosted']);
/** @typedef {typeof SURFACES[number]} Surface */

/**
 * The service's files each surface loads before its field is ready: the script the merchant page includes and the
 * frame it opens (page + its scripts), or, for the hosted page, the page, its style sheet and its script.
 */
export const SERVICE_FILES = {
  elements: { script: '/sdk/elements/1.1.1/sdk.js', frame: '/sdk/elements/1.1.1/card-frame.html', frameScripts: ['/sdk/elements/1.1.1/card-frame.js'] },
  iframe: { script: '/sdk/iframe/1.0.9/sdk.js', frame: '/sdk/iframe/1.0.9/widget.html', frameScripts: ['/sdk/iframe/1.0.9/widget.js'] },
  express: { script: '/sdk/express/1.0.0/sdk.js', frame: null, frameScripts: [] },
};

const sri = (buffer) => `sha384-${createHash('sha384').update(buffer).digest('base64')}`;

/** Where a reference page's padding comment goes (an HTML page pads inside its body; a script, before its code). */
const PADDING_AT = '<!--padding-->';

/**
 * `size` bytes: `code` with a comment of printable ASCII taken from `source` (so as varied as it) at PADDING_AT in an
 * HTML page, or before a script's code, so that the reference file weighs what the service's file does.
 */
function padded(size, code, source, kind) {
  const [open, close] = kind === 'html' ? ['<!--', '-->'] : ['/*', '*/'];
  const [before, after] = kind === 'html' ? code.split(PADDING_AT) : ['', code];
  const room = size - Buffer.byteLength(before + after) - open.length - close.length;
  if (room < 0) return Buffer.from(before + after);
  const padding = Buffer.alloc(room, 0x20);
  for (let i = 0; i < room && source.length > 0; i++) {
    const b = source[i % source.length];
    // Printable ASCII only, and never a character that could end the comment early.
    padding[i] = b < 0x20 || b > 0x7e || b === 0x2a || b === 0x2d || b === 0x3e ? 0x20 : b;
  }
  return Buffer.concat([Buffer.from(before), Buffer.from(open), padding, Buffer.from(close), Buffer.from(after)]);
}

/**
 * How the service's document holds its card number field, which the reference's copies: in the markup and shown (the
 * hosted page, the card frame: ready at the first paint), in the markup inside a hidden part (the iframe widget: shown
 * by its script), or not at all (put in by its script). The reference's script does what is left to do.
 */
function fieldState(html) {
  const text = html.toString('utf8');
  const at = text.search(/<input[^>]*autocomplete="cc-number"/);
  if (at === -1) return 'absent';
  return /<[a-z]+[^>]*\shidden[\s>]/.test(text.slice(0, at)) ? 'hidden' : 'shown';
}
const FIELD = '<label for="number">Card number</label><input id="number" autocomplete="cc-number" inputmode="numeric">';
const fieldMarkup = (html) =>
  ({ shown: `<div id="form">${FIELD}</div>`, hidden: `<div id="form" hidden>${FIELD}</div>`, absent: '<div id="form"></div>' })[fieldState(html)];
const fieldScript = (html) =>
  ({
    shown: `\ndocument.getElementById('form').dataset.ready='';\n`,
    hidden: `\ndocument.getElementById('form').hidden=false;\n`,
    absent: `\ndocument.getElementById('form').innerHTML=${JSON.stringify(FIELD)};\n`,
  })[fieldState(html)];

function copiedHeaders(headers) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [name, value] of headers) if (!NOT_COPIED.has(name)) out[name] = value;
  return out;
}

async function fetchService(base, path, options = {}) {
  const response = await fetch(new URL(path, base), options);
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: is it built (pnpm build)?`);
  return { buffer: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

/**
 * Serves the merchant pages and the reference files; resolves once listening.
 * `clientIdFor(origin)` gives a client ID that allows the merchant pages' origin (known once listening).
 * @param {{ serviceUrl: string, clientIdFor: (origin: string) => Promise<string>, samplePayPath: string }} options
 */
export async function startBenchPages(options) {
  /** @type {Map<string, { body: Buffer, headers: Record<string, string> }>} */
  const files = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const file = files.get(url.pathname);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const etag = file.headers.etag;
    if (etag && req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { ...file.headers, 'content-length': String(file.body.length) }).end(file.body);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve(undefined)));
  const stop = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve(undefined));
    });
  try {
    return await servePages(server, files, stop, options);
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Fills `files` with the reference files and merchant pages once `server` listens.
 * @param {http.Server} server
 * @param {Map<string, { body: Buffer, headers: Record<string, string> }>} files
 * @param {() => Promise<unknown>} stop
 * @param {{ serviceUrl: string, clientIdFor: (origin: string) => Promise<string>, samplePayPath: string }} options
 */
async function servePages(server, files, stop, { serviceUrl, clientIdFor, samplePayPath }) {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const merchantOrigin = `http://localhost:${port}`;
  const referenceOrigin = `http://127.0.0.1:${port}`;
  const clientId = await clientIdFor(merchantOrigin);
  const frameQuery = `?${new URLSearchParams({ clientId, origin: merchantOrigin })}`;
  const html = (body) => ({ body: Buffer.from(body), headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
  /** A reference file: `body` with the headers the service sent its file with, and an ETag where it sent one. */
  const reference = (path, body, real) => {
    const headers = copiedHeaders(real.headers);
    if (real.headers.get('etag')) headers.etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    files.set(path, { body, headers });
    return { path, url: `${referenceOrigin}${path}`, integrity: sri(body), bytes: body.length, realBytes: real.buffer.length };
  };

  const manifest = JSON.parse((await fetchService(serviceUrl, '/sdk/manifest.json')).buffer.toString('utf8'));
  const integrityOf = (path) => Object.values(manifest.files ?? {}).find((f) => typeof f?.url === 'string' && f.url.endsWith(path))?.integrity;
  /** @type {Record<string, { bytes: number, realBytes: number, path: string }[]>} */
  const referenceSizes = {};
  const fieldStateOf = {};

  // Elements and the iframe SDK: the script puts an iframe in #service-front-end; the frame's script puts the field in.
  for (const surface of /** @type {const} */ (['elements', 'iframe', 'express'])) {
    const spec = SERVICE_FILES[surface];
    const realScript = await fetchService(serviceUrl, spec.script);
    const parts = [];
    let scriptCode;
    if (spec.frame) {
      const realFrame = await fetchService(serviceUrl, `${spec.frame}${frameQuery}`);
      const realFrameScripts = await Promise.all(spec.frameScripts.map((p) => fetchService(serviceUrl, p)));
      const framePath = `/reference/${surface}/frame.html`;
      const frameScriptPath = `/reference/${surface}/frame.js`;
      const frameScript = reference(
        frameScriptPath,
        padded(realFrameScripts[0].buffer.length, fieldScript(realFrame.buffer), realFrameScripts[0].buffer, 'js'),
        realFrameScripts[0],
      );
      const frame = reference(
        framePath,
        padded(
          realFrame.buffer.length,
          `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Reference frame</title><script src="frame.js" defer></script></head><body>${fieldMarkup(realFrame.buffer)}${PADDING_AT}</body></html>\n`,
          realFrame.buffer,
          'html',
        ),
        realFrame,
      );
      parts.push(frame, frameScript);
      fieldStateOf[surface] = fieldState(realFrame.buffer);
      scriptCode = `\n(()=>{const f=document.createElement('iframe');f.title='Reference frame';f.src=${JSON.stringify(frame.url)};f.style.cssText='border:0;width:100%;height:240px';document.getElementById('service-front-end').append(f)})();\n`;
    } else {
      scriptCode = `\n(()=>{const b=document.createElement('button');b.type='button';b.textContent='Pay with PayPal';document.getElementById('service-front-end').append(b)})();\n`;
    }
    const script = reference(`/reference/${surface}/sdk.js`, padded(realScript.buffer.length, scriptCode, realScript.buffer, 'js'), realScript);
    parts.unshift(script);
    referenceSizes[surface] = parts;
    files.set(
      `/reference/${surface}`,
      html(
        `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Reference checkout</title></head>` +
          `<body><main><h1>Checkout</h1><div id="service-front-end"></div></main>` +
          `<script src="${script.url}" integrity="${script.integrity}" crossorigin="anonymous"></script></body></html>\n`,
      ),
    );
  }

  // The hosted page: a page of its size, with its style sheet (inline when the service's is, else a file of its size)
  // and a deferred script of theirs; the script puts the field in.
  {
    const realPage = await fetchService(serviceUrl, samplePayPath);
    const text = realPage.buffer.toString('utf8');
    const stylePath = /<link[^>]*href="([^"]+)"/.exec(text)?.[1];
    const inlineStyle = /<style>([^<]*)<\/style>/.exec(text)?.[1];
    const scriptPath = /<script[^>]*src="([^"]+)"/.exec(text)?.[1];
    if ((!stylePath && inlineStyle === undefined) || !scriptPath) throw new Error(`the hosted page ${samplePayPath} names no style sheet or script`);
    const realScript = await fetchService(serviceUrl, scriptPath);
    const styleCode = '\nbody{font-family:sans-serif;margin:0 auto;max-width:30rem}\n';
    const style = stylePath
      ? await fetchService(serviceUrl, stylePath).then((real) =>
          reference('/reference/hosted/page.css', padded(real.buffer.length, styleCode, real.buffer, 'js'), real),
        )
      : null;
    // An inline style of the service's size: a padding comment and the reference's rule (its CSP allows it by hash).
    const inlined = inlineStyle === undefined ? '' : padded(Buffer.byteLength(inlineStyle), styleCode, Buffer.from(inlineStyle), 'js').toString('utf8');
    const script = reference('/reference/hosted/page.js', padded(realScript.buffer.length, fieldScript(realPage.buffer), realScript.buffer, 'js'), realScript);
    const head = stylePath ? '<link rel="stylesheet" href="page.css">' : `<style>${inlined}</style>`;
    const realHeaders = { buffer: realPage.buffer, headers: new Headers(realPage.headers) };
    if (!stylePath) {
      // The service's CSP allows its own style by hash; the reference's, its own.
      const csp = realHeaders.headers.get('content-security-policy');
      if (csp)
        realHeaders.headers.set('content-security-policy', csp.replace(/'sha256-[^']+'/, `'sha256-${createHash('sha256').update(inlined).digest('base64')}'`));
    }
    const page = reference(
      '/reference/hosted/page.html',
      padded(
        realPage.buffer.length,
        `<!doctype html>\n<html lang="en" dir="ltr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Reference page</title>` +
          `${head}<script src="page.js" defer></script></head><body><main><h1>Bench</h1><p>$12.50</p>${fieldMarkup(realPage.buffer)}</main>${PADDING_AT}</body></html>\n`,
        realPage.buffer,
        'html',
      ),
      realHeaders,
    );
    referenceSizes.hosted = style ? [page, style, script] : [page, script];
    fieldStateOf.hosted = fieldState(realPage.buffer);
  }

  // The merchant pages: the demo shop's embedding (docs/integrating.md#browser-sdks), the SDK from the service with
  // its SRI hash, the client ID in the page; each reports its payment callback to the harness (window.__benchPaid,
  // the probe's) and any SDK error.
  const checkout = (surface, locale) => {
    const path = SERVICE_FILES[surface].script;
    const integrity = integrityOf(path);
    if (!integrity) throw new Error(`the service's manifest lists no ${path}: is the SDK built (pnpm build)?`);
    const tag = `<script src="${serviceUrl}${path}" integrity="${integrity}" crossorigin="anonymous"></script>`;
    const report = `const report = (detail) => window.__benchPaid?.(detail);`;
    if (surface === 'express') {
      return (
        `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bench express checkout</title></head>` +
        `<body><main><h1>Checkout</h1><div id="service-front-end"><svc-ecom-sdk-express id="express"></svc-ecom-sdk-express></div></main>${tag}<script>\n${report}\n` +
        `document.getElementById('express').props = { clientId: ${JSON.stringify(clientId)}, amount: '12.50', currency: 'USD', mode: 'sandbox', methodType: 'manual_capture', logs: false, locale: ${JSON.stringify(locale)},\n` +
        `  onError: ({ code }) => report({ error: code }),\n  onPay: (data) => report({ transactionNumber: data.transactionNumber, method: data.method }) };\n</script></body></html>\n`
      );
    }
    return (
      `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bench checkout</title></head>` +
      `<body><main><h1>Checkout</h1><div id="service-front-end"></div><button id="pay-button" type="button" disabled>Pay 12.50 USD</button></main>${tag}<script>\n${report}\n` +
      `const sdk = window.ServiceFrontEndSDK;\nconst payButton = document.getElementById('pay-button');\n` +
      `sdk.config({ mode: 'sandbox', clientId: ${JSON.stringify(clientId)}, methodType: 'manual_capture', locale: ${JSON.stringify(locale)} });\n` +
      `sdk.error(({ code }) => report({ error: code }));\nlet valid = false;\nlet paying = false;\nconst refresh = () => (payButton.disabled = !valid || paying);\n` +
      `sdk.paymentMethodValidationStatus(({ isValid }) => { valid = isValid; refresh(); });\nsdk.paying(({ isPaying }) => { paying = isPaying; refresh(); });\nsdk.init();\n` +
      `payButton.addEventListener('click', () => sdk.pay((transaction) => report({ status: transaction.status, transactionNumber: transaction.TransactionNumber }), { amount: 1250, currency: 'USD' }));\n` +
      `</script></body></html>\n`
    );
  };
  for (const surface of /** @type {const} */ (['elements', 'iframe', 'express']))
    for (const locale of ['en', 'he']) files.set(`/checkout/${surface}/${locale}`, html(checkout(surface, locale)));
  // The merchant-origin page a payment's requests are replayed from when the merchant page made them.
  files.set('/blank', html('<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Blank</title></head><body></body></html>\n'));

  return {
    port,
    /** How each service document holds its field (what its reference copies). */
    fieldStates: { elements: fieldStateOf.elements, iframe: fieldStateOf.iframe, hosted: fieldStateOf.hosted },
    merchantOrigin,
    referenceOrigin,
    referenceSizes,
    /** The merchant's checkout of an SDK in a language. */
    checkoutUrl: (surface, locale) => `${merchantOrigin}/checkout/${surface}/${locale}`,
    /** The reference page of a surface (the hosted page's is a page of the service's host; the others are the merchant's). */
    referenceUrl: (surface) => (surface === 'hosted' ? `${referenceOrigin}/reference/hosted/page.html` : `${merchantOrigin}/reference/${surface}`),
    blankUrl: `${merchantOrigin}/blank`,
    stop,
  };
}
