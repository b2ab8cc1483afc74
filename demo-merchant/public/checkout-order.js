// What the two checkout pages (the widget's and Express) share: opening the order the shop's backend prices, and
// having the backend commit it once the consumer approved the payment.
import { api, cart, describe, money, say } from './shop.js';
import { loadScript } from './sdk-script.js';

/**
 * Asks the shop's backend for its configuration for `sdk` and for the order of the cart, loads the SDK's script from
 * the service (with its SRI hash) and shows the order. When any of it fails, `outcome` says why and this throws.
 */
export async function openCheckout(outcome, sdk, methodType) {
  let config;
  let order;
  try {
    config = await api(`/api/config?sdk=${sdk}`);
    // The shop's backend prices the cart: its amount is the one committed, whatever this page sends.
    order = await api('/api/checkout/order', { items: cart.read(), methodType, sdk });
    await loadScript(config.sdkUrl, config.sdkIntegrity);
  } catch (error) {
    say(outcome, `The checkout is not available: ${describe(error)}`, 'error');
    throw error;
  }
  document.getElementById('order-lines').replaceChildren(Object.assign(document.createElement('li'), { textContent: order.description }));
  document.getElementById('order-total').textContent = money(order.amount, order.currency);
  document.getElementById('order-link').href = `/back-office.html?order=${order.orderId}`;
  return { config, order };
}

/**
 * The shop's backend commits the order's amount on the transaction the consumer approved; `outcome` says how it ended
 * (with `detail` after the transaction number), and the link to the order in the back office appears.
 */
export async function commitOrder(outcome, order, transactionNumber, detail = '') {
  try {
    const committed = await api('/api/checkout/commit', { orderId: order.orderId, transactionNumber });
    say(outcome, `${committed.statusName} (status ${committed.status}) · ${committed.transactionNumber}${detail}`, 'ok');
    outcome.dataset.status = String(committed.status);
  } catch (error) {
    // The order is not lost: the back office shows it with this refusal and the transaction's status.
    say(outcome, `The shop could not confirm the payment: ${describe(error)}`, 'error');
  }
  document.getElementById('next-step').hidden = false;
}
