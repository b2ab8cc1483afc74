import { STICKER_POLL_INTERVAL_MS } from '@svc/protocol';
import type { Language } from '@svc/sdk-core/i18n';
import { escapeHtml, PAGE_ASSETS, renderPage } from '../consumer-pages';
import { translator } from '../../i18n';

/**
 * "No payment is waiting" (docs/integrating.md#terminals-and-stickers): the sticker's page while the cashier has not created a transaction. Its
 * script asks `/s/<code>/next` every STICKER_POLL_INTERVAL_MS and opens the payment page once there is one.
 */
export function renderWaitingPage(stickerCode: string, language: Language = 'en'): string {
  const t = translator(language);
  return renderPage({
    title: t('sticker.waiting'),
    language,
    script: PAGE_ASSETS.stickerScript,
    mainData: { sticker: stickerCode, poll: STICKER_POLL_INTERVAL_MS, retired: t('sticker.retired') },
    main: [
      `<h1>${escapeHtml(t('sticker.waiting'))}</h1>`,
      `<p>${escapeHtml(t('sticker.notStarted'))}</p>`,
      `<p id="sticker-status" role="status">${escapeHtml(t('sticker.opensItself'))}</p>`,
    ].join('\n'),
  });
}
