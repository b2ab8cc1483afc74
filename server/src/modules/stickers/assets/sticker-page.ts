/**
 * The sticker's "No payment is waiting" page: asks `/s/<code>/next` every few seconds and opens the payment page as
 * soon as the cashier has created one. Polling, not a websocket: the answer is one small public JSON and reveals
 * nothing about the device, and a sticker page needs no credential of any kind.
 */
import { parseWith, fillPath, nextStickerPaymentPath, StickerNextWire } from '@svc/protocol/light';

const main = document.getElementById('page');
const code = main?.dataset['sticker'];
const interval = Number(main?.dataset['poll'] ?? 2000);
const status = document.getElementById('sticker-status');
/** The language the consumer chose on this page (?lang=), carried to the payment page. */
const chosen = new URLSearchParams(location.search).get('lang');

async function poll(): Promise<void> {
  try {
    const response = await fetch(fillPath(nextStickerPaymentPath, { stickerCode: code! }), { cache: 'no-store', credentials: 'omit' });
    if (response.status === 404) {
      if (status) status.textContent = main?.dataset['retired'] ?? '';
      return;
    }
    const next = parseWith(StickerNextWire, response.ok ? await response.json() : null);
    if (next.ok && next.value.type === 'payment' && new URL(next.value.url, location.href).origin === location.origin) {
      const url = new URL(next.value.url, location.href);
      if (chosen) url.searchParams.set('lang', chosen);
      location.replace(url.href);
      return;
    }
  } catch {
    // Offline for a moment: the next round tries again.
  }
  setTimeout(() => void poll(), interval);
}

if (code) setTimeout(() => void poll(), interval);
