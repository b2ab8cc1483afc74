// The Express checkout: <svc-ecom-sdk-express> from the service (with its SRI hash). The consumer approves in a
// wallet's sheet; onPay gives the transaction number, and the shop's backend commits the order's amount with its API
// key, as on the widget checkout. The signed callback the service then sends the shop shows below the outcome.
import { followLive, languageSwitch, say } from './shop.js';
import { commitOrder, openCheckout } from './checkout-order.js';

const outcome = document.getElementById('outcome');
const callbackLine = document.getElementById('callback');
const params = new URLSearchParams(location.search);
const methodType = ['manual_capture', 'authorize', 'tokenize'].includes(params.get('methodType')) ? params.get('methodType') : 'manual_capture';
const select = document.getElementById('method-type');
select.value = methodType;
select.addEventListener('change', () => {
  params.set('methodType', select.value);
  location.search = params.toString();
});

const { config, order } = await openCheckout(outcome, 'express', methodType);

let transactionNumber = null;
followLive({
  onCallback: (callback) => {
    if (!transactionNumber || callback.transactionNumber !== transactionNumber) return;
    say(
      callbackLine,
      `Callback received: ${callback.statusName} (status ${callback.status}), signature ${callback.verified ? 'verified' : 'NOT verified'}`,
      callback.verified ? 'ok' : 'error',
    );
  },
});

// The buttons' look (props.appearance): each wallet's theme from its own button guidelines, the height and radius.
const BUTTON_LOOKS = {
  default: {},
  night: { buttonTheme: { paypal: 'white', applepay: 'white', googlepay: 'white' } },
  flat: { buttonTheme: { paypal: 'blue' }, buttonHeight: 40, buttonRadius: 20 },
};
const themeSelect = document.getElementById('theme');
themeSelect.value = Object.hasOwn(BUTTON_LOOKS, params.get('theme')) ? params.get('theme') : 'default';
document.body.dataset.theme = themeSelect.value;
themeSelect.addEventListener('change', () => {
  params.set('theme', themeSelect.value);
  history.replaceState(null, '', `?${params}`);
  document.body.dataset.theme = themeSelect.value;
  const express = document.getElementById('express');
  express.props = { ...express.props, appearance: BUTTON_LOOKS[themeSelect.value] };
});

// The buttons' and the sandbox sheet's language (props.locale), changed in place.
const locale = languageSwitch(params, (chosen) => {
  const express = document.getElementById('express');
  express.props = { ...express.props, locale: chosen };
});

document.getElementById('express').props = {
  appearance: BUTTON_LOOKS[themeSelect.value],
  locale,
  clientId: config.clientId,
  amount: (order.amount / 100).toFixed(2),
  currency: order.currency,
  mode: 'sandbox',
  methodType,
  logs: false,
  onShow: () => say(outcome, 'Waiting for the wallet…', 'busy'),
  onError: ({ code, message }) => say(outcome, `${code}: ${message}`, 'error'),
  onPay: async (data) => {
    transactionNumber = data.transactionNumber;
    outcome.dataset.transaction = data.transactionNumber;
    await commitOrder(outcome, order, data.transactionNumber, ` · paid with ${data.method}`);
  },
};
