import { Router } from 'express';
import type { AppDeps } from '../../app-deps';
import { perAddressLimit } from '../../http/address-limit';
import { sendTagged } from '../../http/etag';
import { notFoundPage, sendPage } from '../consumer-pages';
import { findLinkFace } from './hosted-page.queries';
import { toLinkState } from './link-state';
import { renderPaymentPage } from './payment-page';
import { paymentPageUrl } from '../transactions';
import { qrCodeSvg } from './qr-code';

const LINK_ID = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The consumer's page of a payment link, `GET /pay/:linkId` (docs/integrating.md#the-hosted-payment-page), and its QR code. An unknown or
 * malformed link is a 404 page: a person opened it in a browser. Nothing secret is rendered (no posData, token or
 * credential: the page is drawn from the link's public state).
 */
export function paymentPageRouter(deps: AppDeps): Router {
  const router = Router();
  const perAddress = perAddressLimit(deps.limiter, 'consumer');
  const face = async (linkId: unknown) => (typeof linkId === 'string' && LINK_ID.test(linkId) ? findLinkFace(deps.db, linkId) : null);

  router.get('/pay/:linkId', perAddress, async (req, res) => {
    const found = await face(req.params.linkId);
    if (!found) {
      sendPage(res, deps.env.PUBLIC_BASE_URL, 404, notFoundPage('payment link'));
      return;
    }
    const now = deps.clock.now();
    const html = renderPaymentPage({ linkId: found.row.linkId, state: toLinkState(found, now), sequence: found.row.sequence, now });
    sendPage(res, deps.env.PUBLIC_BASE_URL, 200, html);
  });

  router.get('/pay/:linkId/qr.svg', perAddress, async (req, res) => {
    const found = await face(req.params.linkId);
    if (!found) {
      sendPage(res, deps.env.PUBLIC_BASE_URL, 404, notFoundPage('payment link'));
      return;
    }
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type('image/svg+xml');
    sendTagged(req, res, qrCodeSvg(paymentPageUrl(deps.env.PUBLIC_BASE_URL, found.row.linkId)));
  });

  return router;
}
