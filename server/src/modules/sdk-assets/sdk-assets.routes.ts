import { CARD_FRAME_REFUSED_CSP, cardFrameCsp, frameAncestorsDirective, isPlainOrigin, widgetPageCsp, type SdkManifest } from '@svc/protocol';
import { Router, type Request, type Response } from 'express';
import type { Database } from '../../db/client';
import { sendTagged } from '../../http/etag';
import { REPO_ROOT, type Env } from '../../env';
import { ApiError } from '../../errors';
import { originAllowed } from '../sdk-sessions';
import { SDK_FILES, SdkFileCache, type LoadedFile } from './sdk-files';
import { localeFiles } from './locale-files';
import { cardFramePage, frameLanguage } from './card-frame-page';
import { frameRefusalPage, type WidgetRefusalCode } from './frame-refusal-page';
import { encodedFile, type EncodableFile } from './encoded-file';
import { findCredentialByHash } from '../../auth/credentials.queries';
import { hashCredential } from '../../auth/credential-hash';
import { pageLanguage } from '../../i18n';
import type { Language } from '@svc/sdk-core/i18n';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** SDK_FILES_REVALIDATE (sandbox only, `pnpm dev`): the scripts change under the same versioned path while it runs. */
const REVALIDATE = 'no-cache';

/** The served files' types, by kind: a script, an SDK's TypeScript types, its elements' manifest. */
const CONTENT_TYPES = {
  script: 'text/javascript; charset=utf-8',
  types: 'application/typescript; charset=utf-8',
  'custom-elements': 'application/json; charset=utf-8',
} as const;

/** What the SDK asset routes use: the database (client IDs' allowed origins) and the public base URL. */
export interface SdkAssetsRouterDeps {
  env: Env;
  db: Database;
}

/**
 * Serves the built SDK scripts under /sdk (and beside each its TypeScript types, `sdk.d.ts`, and its elements'
 * `custom-elements.json`), compressed as the browser accepts (brotli or gzip, encoded-file.ts), with long cache headers (the paths are versioned; with SDK_FILES_REVALIDATE,
 * revalidated on every use instead, so a rebuild shows on the next reload), their SRI hashes in
 * /sdk/manifest.json, and the secure card frame page, which may only be framed by an origin the client ID allows.
 */
export function sdkAssetsRouter(deps: SdkAssetsRouterDeps, root = REPO_ROOT): Router {
  const router = Router();
  const files = new SdkFileCache(root);
  const base = `${deps.env.PUBLIC_BASE_URL}/sdk`;
  const locales = localeFiles();

  router.get('/sdk/manifest.json', async (req, res) => {
    const manifest: SdkManifest = { files: {} };
    for (const file of SDK_FILES) {
      const loaded = await files.load(file);
      if (loaded) manifest.files[file.name] = { url: `${base}${file.urlPath}`, integrity: loaded.integrity };
    }
    for (const [language, file] of locales) manifest.files[`locale-${language}`] = { url: `${base}/locales/${language}.json`, integrity: file.integrity };
    const body = JSON.stringify(manifest);
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.type('application/json');
    sendTagged(req, res, body);
  });

  for (const file of SDK_FILES) {
    router.get(`/sdk${file.urlPath}`, async (req, res) => {
      const loaded = await files.load(file);
      if (!loaded) throw new ApiError('not_found', `The ${file.name} SDK is not built on this server; run "pnpm build" in the repository.`);
      if (file.kind === 'frame' || file.kind === 'widget') {
        await sendFrame(deps, req, res, loaded, file.kind === 'widget');
        return;
      }
      res.setHeader('Content-Type', CONTENT_TYPES[file.kind]);
      res.setHeader('Cache-Control', deps.env.SDK_FILES_REVALIDATE ? REVALIDATE : IMMUTABLE);
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      await sendEncoded(req, res, loaded);
    });
  }
  // The catalogues of the consumer's languages (docs/languages.md): the widgets load the one they speak.
  router.get('/sdk/locales/:file', async (req, res, next) => {
    const file = locales.get(String(req.params.file).replace(/\.json$/, '') as never);
    if (!file || !String(req.params.file).endsWith('.json')) {
      next();
      return;
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', deps.env.SDK_FILES_REVALIDATE ? REVALIDATE : 'public, max-age=3600');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    await sendEncoded(req, res, file);
  });
  return router;
}

/**
 * The card frame page: `?clientId=ck_…&origin=<merchant origin>[&lang=<language>]`. The origin must be one the client ID allows;
 * the page then carries `frame-ancestors <origin>`, so no other site can frame it, and a CSP that lets it talk
 * only to this service.
 */
async function sendFrame(deps: SdkAssetsRouterDeps, req: Request, res: Response, loaded: LoadedFile, isWidget: boolean): Promise<void> {
  const query: Record<string, unknown> = req.query;
  const clientId = typeof query.clientId === 'string' ? query.clientId : '';
  const origin = typeof query.origin === 'string' ? query.origin : '';
  const client = clientId.length > 0 && clientId.length <= 200 ? await findCredentialByHash(deps.db, hashCredential(clientId)) : null;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  // A stored origin that is not a plain one (saved before origins were checked) frames nothing.
  if (!client || client.kind !== 'client' || !originAllowed(client.allowedOrigins, origin) || !isPlainOrigin(origin)) {
    // Said in the shopper's language: the widget's (`lang`, which Elements puts in its card frame's URL), else the browser's.
    const language = pageLanguage({ query: query.lang, acceptLanguage: req.get('accept-language') });
    if (isWidget && isPlainOrigin(origin)) {
      sendWidgetRefusal(res, origin, client?.kind === 'client' ? 'origin_not_allowed' : 'client_id_unknown', language);
      return;
    }
    res.setHeader('Content-Security-Policy', CARD_FRAME_REFUSED_CSP);
    res.status(403).type('html').send(frameRefusalPage(language));
    return;
  }
  res.setHeader('Content-Security-Policy', isWidget ? widgetPageCsp(origin) : cardFrameCsp(origin));
  // The Elements card frame starts in the widget's language (`lang`); the iframe SDK's widget page learns it from its config.
  res.type('html').send(isWidget ? loaded.body : cardFramePage(loaded.body, frameLanguage(query.lang)));
}

/**
 * The iframe SDK's widget page refused: no form, only the widget script, which reads the code from the page and tells
 * the loader in the page at `origin` (its one postMessage target), so the merchant's error callback gets
 * `client_id_unknown` or `origin_not_allowed` as Elements reports them. Nothing here can be used by the framing site.
 */
function sendWidgetRefusal(res: Response, origin: string, code: WidgetRefusalCode, language: Language): void {
  res.setHeader(
    'Content-Security-Policy',
    [frameAncestorsDirective(origin), "default-src 'none'", "script-src 'self'", "base-uri 'none'", "form-action 'none'"].join('; '),
  );
  res.status(403).type('html').send(frameRefusalPage(language, code));
}

/** Sends a built file compressed as the client accepts (encoded-file.ts); HEAD answers the same headers without the body. */
export async function sendEncoded(req: Request, res: Response, file: EncodableFile): Promise<void> {
  const encoded = await encodedFile(file, req.get('accept-encoding'));
  res.append('Vary', 'Accept-Encoding');
  if (encoded.coding !== 'identity') res.setHeader('Content-Encoding', encoded.coding);
  sendTagged(req, res, encoded.body, encoded.etag);
}
