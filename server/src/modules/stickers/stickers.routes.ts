import { ENDPOINT, type StickerNext } from '@svc/protocol';
import type { RateLimiter } from '../../http/rate-limit';
import type { ServiceDeps } from '../../service-deps';
import { NotFoundError } from '../../errors';
import { perAddressLimit } from '../../http/address-limit';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { StickerCodeParam } from '../../http/path-params';
import { paymentPageUrl } from '../transactions';
import { notFoundPage, sendPage } from '../consumer-pages';
import { renderWaitingPage } from './sticker-page';
import { findStickerDevice, newestPayableLinkOfDevice } from './stickers.queries';
import { pageLanguage } from '../../i18n';

/**
 * A device's sticker, `GET /s/:stickerCode` (docs/integrating.md#terminals-and-stickers): 303 to the hosted page of the device's newest payable
 * transaction, or the "No payment is waiting" page, whose script polls `GET /s/:stickerCode/next`. The code is
 * public; nothing here names the device or its ID.
 */
export function stickersRoutes(deps: ServiceDeps & { limiter: RateLimiter }): EndpointRoute[] {
  const perAddress = { before: [perAddressLimit(deps.limiter, 'consumer')] };
  const payPage = (linkId: string) => paymentPageUrl(deps.env.PUBLIC_BASE_URL, linkId);
  return [
    route(
      ENDPOINT.openSticker,
      async ({ req, res }) => {
        // A page: a malformed code is its 404 page, not a problem.
        const code = StickerCodeParam.safeParse(req.params.stickerCode);
        const language = pageLanguage({ query: req.query['lang'], acceptLanguage: req.get('accept-language') });
        const device = code.success ? await findStickerDevice(deps.db, code.data) : null;
        if (!code.success || !device) {
          sendPage(res, deps.env.PUBLIC_BASE_URL, 404, notFoundPage('sticker', language));
          return;
        }
        const linkId = await newestPayableLinkOfDevice(deps.db, device.deviceId, deps.clock.now());
        if (linkId) {
          res.setHeader('Cache-Control', 'no-store');
          res.setHeader('Referrer-Policy', 'no-referrer');
          const chosen = typeof req.query['lang'] === 'string' ? `?lang=${encodeURIComponent(req.query['lang'])}` : '';
          res.redirect(303, `${payPage(linkId)}${chosen}`);
          return;
        }
        sendPage(res, deps.env.PUBLIC_BASE_URL, 200, renderWaitingPage(code.data, language));
      },
      perAddress,
    ),
    route(
      ENDPOINT.nextStickerPayment,
      async ({ params, res }) => {
        const device = await findStickerDevice(deps.db, params.stickerCode);
        if (!device) throw new NotFoundError('sticker');
        const linkId = await newestPayableLinkOfDevice(deps.db, device.deviceId, deps.clock.now());
        const body: StickerNext = linkId ? { type: 'payment', url: payPage(linkId) } : { type: 'waiting' };
        res.setHeader('Cache-Control', 'no-store');
        res.json(body);
      },
      perAddress,
    ),
  ];
}
