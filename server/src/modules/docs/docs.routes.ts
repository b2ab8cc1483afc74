import { buildOpenApiDocument } from '@svc/protocol';
import { Router, type RequestHandler } from 'express';
import type { Env } from '../../env';
import { etagOf } from '../../entity-tag';
import { sendTagged } from '../../http/etag';
import { renderApiReference } from './docs-page';
import { renderErrorReference } from './errors-page';
import { renderEventReference } from './events-page';

const CACHE_CONTROL = 'public, max-age=300';
/** The pages are self-contained: inline styles, no scripts, no requests to anywhere. */
const PAGE_SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  'X-Content-Type-Options': 'nosniff',
};

/**
 * `GET /openapi.json` (the OpenAPI 3.1 document generated from `protocol`), `GET /docs` (the API reference
 * rendered from it), `GET /docs/errors` (every error code; problem `type`s point here) and `GET /docs/events` (every
 * event type a webhook endpoint may enable, with an example). Built once, at start.
 */
export function docsRouter({ env }: { env: Env }): Router {
  const document = buildOpenApiDocument({ serverUrl: env.PUBLIC_BASE_URL, sandbox: env.SVC_MODE === 'sandbox' });
  const json = JSON.stringify(document);
  const reference = renderApiReference(document);
  const errors = renderErrorReference(document);
  const events = renderEventReference(document);

  const router = Router();
  const jsonTag = etagOf(json);
  router.get('/openapi.json', (req, res) => {
    res.setHeader('Cache-Control', CACHE_CONTROL);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type('application/json');
    sendTagged(req, res, json, jsonTag);
  });
  router.get('/docs', sendPage(reference));
  router.get('/docs/errors', sendPage(errors));
  router.get('/docs/events', sendPage(events));
  return router;
}

function sendPage(html: string): RequestHandler {
  const tag = etagOf(html);
  return (req, res) => {
    res.set(PAGE_SECURITY_HEADERS);
    res.setHeader('Cache-Control', CACHE_CONTROL);
    res.type('html');
    sendTagged(req, res, html, tag);
  };
}
