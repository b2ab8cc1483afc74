import { ENDPOINT } from '@svc/protocol';
import type { RateLimiter } from '../../http/rate-limit';
import type { ServiceDeps } from '../../service-deps';
import { NotFoundError } from '../../errors';
import { perAddressLimit } from '../../http/address-limit';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { LinkIdParam } from '../../http/path-params';
import { sendTagged } from '../../http/etag';
import { notFoundPage, sendPage } from '../consumer-pages';
import { findLinkForConsumer } from './hosted-page.queries';
import { toLinkState } from './link-state';
import { renderPaymentPage } from './payment-page';
import { paymentPageUrl } from '../transactions';
import { qrCodeSvg } from './qr-code';
import { pageLanguage } from '../../i18n';

/**
 * The consumer's page of a payment link, `GET /pay/:linkId` (docs/integrating.md#the-hosted-payment-page), and its QR code. An unknown or
 * malformed link is a 404 page (a person opened it in a browser), and a 404 problem for the QR code (an image a
 * program embeds is never an HTML page). Nothing secret is rendered (no posData, token or credential: the page is
 * drawn from the link's public state).
 */
export function paymentPageRoutes(deps: ServiceDeps & { limiter: RateLimiter }): EndpointRoute[] {
  const perAddress = { before: [perAddressLimit(deps.limiter, 'consumer')] };
  // Pages: a malformed link is the 404 page, not a problem.
  const linkOf = async (linkId: unknown) => (LinkIdParam.safeParse(linkId).success ? findLinkForConsumer(deps.db, linkId as string) : null);
  return [
    route(
      ENDPOINT.getPaymentPage,
      async ({ req, res }) => {
        const found = await linkOf(req.params.linkId);
        const language = pageLanguage({ query: req.query['lang'], transaction: found?.row.language, acceptLanguage: req.get('accept-language') });
        if (!found) {
          sendPage(res, deps.env.PUBLIC_BASE_URL, 404, notFoundPage('payment link', language));
          return;
        }
        const now = deps.clock.now();
        const html = renderPaymentPage({ linkId: found.row.linkId, state: toLinkState(found, now), sequence: found.row.sequence, now, language });
        sendPage(res, deps.env.PUBLIC_BASE_URL, 200, html);
      },
      perAddress,
    ),
    route(
      ENDPOINT.getPaymentQrCode,
      async ({ req, res }) => {
        const found = await linkOf(req.params.linkId);
        if (!found) throw new NotFoundError('payment link');
        res.setHeader('Cache-Control', 'public, max-age=86400');
        res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.type('image/svg+xml');
        sendTagged(req, res, qrCodeSvg(paymentPageUrl(deps.env.PUBLIC_BASE_URL, found.row.linkId)));
      },
      perAddress,
    ),
  ];
}
