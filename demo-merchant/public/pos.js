// The point of sale: the shop's backend creates the sale for its terminal (the device); the customer pays on the
// terminal (here its sandbox simulator), with the QR code, or with the counter's sticker. The status follows live.
import { api, cart, cartSummary, describe, orderStatusView, say } from './shop.js';

const items = cart.read();
const { products } = await api('/api/catalogue');
document.getElementById('cart-summary').textContent = cartSummary(items, products);
const error = document.getElementById('pos-error');
const status = document.getElementById('sale-status');

try {
  const { terminalUrl, stickerUrl } = await api('/api/pos/terminal');
  document.getElementById('terminal-link').href = terminalUrl;
  if (stickerUrl) {
    const link = Object.assign(document.createElement('a'), { href: stickerUrl, textContent: 'Open the counter sticker', target: '_blank', rel: 'noopener' });
    document.getElementById('sticker').append(' ', link);
  }
} catch (failure) {
  say(error, describe(failure), 'error');
}

const showStatus = orderStatusView(status);

const charge = document.getElementById('charge');
charge.addEventListener('click', async () => {
  say(error, '', '');
  charge.disabled = true;
  try {
    const sale = await api('/api/pos', { items });
    showStatus(sale.order);
    document.getElementById('qr').src = sale.qrSvgUrl;
    document.getElementById('sale').hidden = false;
  } catch (failure) {
    say(error, describe(failure), 'error');
  } finally {
    charge.disabled = false;
  }
});
