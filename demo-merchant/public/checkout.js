// The checkout with a ServiceFrontEndSDK widget (Elements or iframe: the same API, only the script differs). The
// page loads the SDK from the service with its SRI hash, the consumer pays in the widget, then the shop's backend
// commits the order's amount with its API key and keeps the payment token. The page knows the client ID, its order
// id and the outcome, nothing else.
import { languageSwitch, money, say } from './shop.js';
import { commitOrder, openCheckout } from './checkout-order.js';

const outcome = document.getElementById('outcome');
const payButton = document.getElementById('pay-button');
const params = new URLSearchParams(location.search);
const sdkName = params.get('sdk') === 'iframe' ? 'iframe' : 'elements';
const methodType = ['manual_capture', 'authorize', 'tokenize'].includes(params.get('methodType')) ? params.get('methodType') : 'manual_capture';
// The most payments the widget offers the shopper (maxInstallments; one: no choice shown).
const installments = ['3', '6', '12'].includes(params.get('installments')) ? params.get('installments') : '1';
for (const [id, value, key] of [
  ['sdk', sdkName, 'sdk'],
  ['method-type', methodType, 'methodType'],
  ['installments', installments, 'installments'],
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

const { config, order } = await openCheckout(outcome, sdkName, methodType);
const total = money(order.amount, order.currency);
payButton.textContent = methodType === 'tokenize' ? `Save the card for ${total}` : `Pay ${total}`;

const sdk = window.ServiceFrontEndSDK;
sdkConfig = { mode: 'sandbox', clientId: config.clientId, methodType, visualizer: true, locale, appearance: { theme } };
if (installments !== '1') sdkConfig.maxInstallments = Number(installments);
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
      await commitOrder(outcome, order, transaction.TransactionNumber);
    },
    { amount: order.amount, currency: order.currency },
  );
});
