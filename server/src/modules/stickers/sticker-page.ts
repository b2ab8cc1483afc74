import { STICKER_POLL_INTERVAL_MS } from '@svc/protocol';
import { escapeHtml, PAGE_ASSETS, renderPage } from '../consumer-pages';

/**
 * "No payment is waiting" (docs/integrating.md#terminals-and-stickers): the sticker's page while the cashier has not created a transaction. Its
 * script asks `/s/<code>/next` every STICKER_POLL_INTERVAL_MS and opens the payment page once there is one.
 */
export function renderWaitingPage(stickerCode: string): string {
  return renderPage({
    title: 'No payment is waiting',
    script: PAGE_ASSETS.stickerScript,
    mainData: { sticker: stickerCode, poll: STICKER_POLL_INTERVAL_MS },
    main: [
      '<h1>No payment is waiting</h1>',
      '<p>The cashier has not started a payment on this terminal yet.</p>',
      `<p id="sticker-status" role="status">${escapeHtml('This page opens the payment by itself as soon as there is one.')}</p>`,
    ].join('\n'),
  });
}
