import type { StickerNext } from '@svc/protocol';
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps';
import { NotFoundError } from '../../errors';
import { perAddressLimit } from '../../http/address-limit';
import { paymentPageUrl } from '../transactions';
import { notFoundPage, sendPage } from '../consumer-pages';
import { renderWaitingPage } from './sticker-page';
import { findStickerDevice, newestPayableLinkOfDevice } from './stickers.queries';

const StickerCode = z.string().regex(/^[a-z0-9]{16,64}$/);

/**
 * A device's sticker, `GET /s/:stickerCode` (docs/integrating.md#terminals-and-stickers): 303 to the hosted page of the device's newest payable
 * transaction, or the "No payment is waiting" page, whose script polls `GET /s/:stickerCode/next`. The code is
 * public; nothing here names the device or its ID.
 */
export function stickersRouter(deps: AppDeps): Router {
  const router = Router();
  const perAddress = perAddressLimit(deps.limiter, 'consumer');
  const payPage = (linkId: string) => paymentPageUrl(deps.env.PUBLIC_BASE_URL, linkId);

  router.get('/s/:stickerCode', perAddress, async (req, res) => {
    const code = StickerCode.safeParse(req.params.stickerCode);
    const device = code.success ? await findStickerDevice(deps.db, code.data) : null;
    if (!code.success || !device) {
      sendPage(res, deps.env.PUBLIC_BASE_URL, 404, notFoundPage('sticker'));
      return;
    }
    const linkId = await newestPayableLinkOfDevice(deps.db, device.deviceId, deps.clock.now());
    if (linkId) {
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.redirect(303, payPage(linkId));
      return;
    }
    sendPage(res, deps.env.PUBLIC_BASE_URL, 200, renderWaitingPage(code.data));
  });

  router.get('/s/:stickerCode/next', perAddress, async (req, res) => {
    const code = StickerCode.safeParse(req.params.stickerCode);
    const device = code.success ? await findStickerDevice(deps.db, code.data) : null;
    if (!device) throw new NotFoundError('sticker');
    const linkId = await newestPayableLinkOfDevice(deps.db, device.deviceId, deps.clock.now());
    const body: StickerNext = linkId ? { type: 'payment', url: payPage(linkId) } : { type: 'waiting' };
    res.setHeader('Cache-Control', 'no-store');
    res.json(body);
  });

  return router;
}
