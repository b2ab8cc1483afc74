// The checkout with a ServiceFrontEndSDK widget (Elements or iframe: the same API, only the script differs). The
// page loads the SDK from the service with its SRI hash, the consumer pays in the widget, then the shop's backend
// commits the order's amount with its API key and keeps the payment token. The page knows the client ID, its order
// id and the outcome, nothing else.
import { api, cart, describe, languageSwitch, money, say } from './shop.js';
import { loadScript } from './sdk-script.js';

const outcome = document.getElementById('outcome');
const payButton = document.getElementById('pay-button');
const params = new URLSearchParams(location.search);
const sdkName = params.get('sdk') === 'iframe' ? 'iframe' : 'elements';
const methodType = ['manual_capture', 'authorize', 'tokenize'].includes(params.get('methodType')) ? params.get('methodType') : 'manual_capture';
for (const [id, value, key] of [
  ['sdk', sdkName, 'sdk'],
  ['method-type', methodType, 'methodType'],
]) {
  const select = document.getElementById(id);
  select.value = value;
  select.addEventListener('change', () => {
    params.set(key, select.value);
    location.search = params.toString();
  });
}
// The widget's appearance (its theme here; variables and rules too, see the SDK's README): changed in place with
// update(), so what the shopper typed stays.
const themeSelect = document.getElementById('theme');
const theme = ['default', 'night', 'flat'].includes(params.get('theme')) ? params.get('theme') : 'default';
themeSelect.value = theme;
document.body.dataset.theme = theme;
themeSelect.addEventListener('change', () => {
  params.set('theme', themeSelect.value);
  history.replaceState(null, '', `?${params}`);
  document.body.dataset.theme = themeSelect.value;
  window.ServiceFrontEndSDK?.update({ appearance: { theme: themeSelect.value } });
});
// The widget's language (config({ locale })): config() again with another locale changes it in place.
let sdkConfig = null;
const locale = languageSwitch(params, (chosen) => {
  if (sdkConfig) window.ServiceFrontEndSDK?.config((sdkConfig = { ...sdkConfig, locale: chosen, appearance: { theme: themeSelect.value } }));
});
if (sdkName === 'iframe')
  document.getElementById('widget-note').textContent = 'The whole payment form is a frame served by the payment service; this shop never sees the card.';

let config;
let order;
try {
  config = await api(`/api/config?sdk=${sdkName}`);
  // The shop's backend prices the cart: its amount is the one committed, whatever this page sends.
  order = await api('/api/checkout/order', { items: cart.read(), methodType, sdk: sdkName });
  await loadScript(config.sdkUrl, config.sdkIntegrity);
} catch (error) {
  say(outcome, `The checkout is not available: ${describe(error)}`, 'error');
  throw error;
}
const total = money(order.amount, order.currency);
document.getElementById('order-lines').replaceChildren(Object.assign(document.createElement('li'), { textContent: order.description }));
document.getElementById('order-total').textContent = total;
payButton.textContent = methodType === 'tokenize' ? `Save the card for ${total}` : `Pay ${total}`;
document.getElementById('order-link').href = `/back-office.html?order=${order.orderId}`;

const sdk = window.ServiceFrontEndSDK;
sdkConfig = { mode: 'sandbox', clientId: config.clientId, methodType, visualizer: true, locale, appearance: { theme } };
sdk.config(sdkConfig);
sdk.error(({ code, message }) => say(outcome, `${code}: ${message}`, 'error'));
// Pay is offered once the widget says the payment method is complete, and not while a payment runs.
let valid = false;
let paying = false;
const refreshButton = () => {
  payButton.disabled = !valid || paying;
};
sdk.paymentMethodValidationStatus(({ isValid }) => {
  valid = isValid;
  refreshButton();
});
sdk.paying(({ isPaying }) => {
  paying = isPaying;
  refreshButton();
});
sdk.init();

payButton.addEventListener('click', () => {
  say(outcome, 'Paying…', 'busy');
  sdk.pay(
    async (transaction) => {
      outcome.dataset.transaction = transaction.TransactionNumber;
      if (transaction.status !== 10) {
        say(outcome, `The payment ended with status ${transaction.statusName} (${transaction.status}).`, 'error');
        return;
      }
      try {
        const committed = await api('/api/checkout/commit', { orderId: order.orderId, transactionNumber: transaction.TransactionNumber });
        say(outcome, `${committed.statusName} (status ${committed.status}) · ${committed.transactionNumber}`, 'ok');
        outcome.dataset.status = String(committed.status);
      } catch (error) {
        // The order is not lost: the back office shows it with this refusal and the transaction's status.
        say(outcome, `The shop could not confirm the payment: ${describe(error)}`, 'error');
      }
      document.getElementById('next-step').hidden = false;
    },
    { amount: order.amount, currency: order.currency },
  );
});
