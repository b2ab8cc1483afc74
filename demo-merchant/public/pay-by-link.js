// "Send a payment link": the shop's backend creates the transaction with the customer's phone or e-mail; the service
// sends the link (sandbox: to its outbox, shown here), and the page follows the link's status live.
import { api, cart, cartSummary, describe, orderStatusView, say } from './shop.js';

const form = document.getElementById('send-form');
const error = document.getElementById('send-error');
const status = document.getElementById('link-status');
const items = cart.read();
const { products, currency } = await api('/api/catalogue');
document.getElementById('cart-summary').textContent = cartSummary(items, products) || `empty (${currency})`;

const showStatus = orderStatusView(status);

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  say(error, '', '');
  const submit = form.querySelector('button[type="submit"]');
  submit.disabled = true;
  try {
    const sent = await api('/api/links', { phone: form.phone.value, email: form.email.value, items });
    showStatus(sent.order);
    const qr = document.getElementById('qr');
    qr.src = sent.qrSvgUrl;
    qr.hidden = false;
    document.getElementById('pay-link').href = sent.qrURL;
    const { messages } = await api(`/api/links/${sent.order.orderId}`);
    document.getElementById('messages').replaceChildren(
      ...messages.map((m) => {
        const li = document.createElement('li');
        const quote = document.createElement('blockquote');
        quote.textContent = m.body;
        li.append(`${m.channel === 'sms' ? 'SMS' : 'E-mail'} to ${m.to} (${m.status}):`, quote);
        return li;
      }),
    );
    document.getElementById('sent').hidden = false;
  } catch (failure) {
    say(error, describe(failure), 'error');
  } finally {
    submit.disabled = false;
  }
});
