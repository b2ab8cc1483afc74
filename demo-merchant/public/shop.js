// What every page of the demo shop shares: calling the shop's backend, money, the cart, refusals and the live stream.

/** A refusal, as the shop's backend relays it: the payment service's problem code and detail, or the shop's own. */
export class Refusal extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** Calls the shop's backend (never the payment service with a key: the page has none). */
export async function api(path, body, method = body === undefined ? 'GET' : 'POST') {
  const init = { method, headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new Refusal('shop_unreachable', 'The shop does not answer. Check your connection and try again.');
  }
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) throw new Refusal(answer.code ?? `http_${res.status}`, answer.message ?? `The shop answered ${res.status}.`);
  return answer;
}

/** "code: detail", as the service words it. */
export const describe = (error) => (error instanceof Refusal ? `${error.code}: ${error.message}` : String(error?.message ?? error));

export const money = (cents, currency) => `${(cents / 100).toFixed(2)} ${currency}`;

/** Decimal text ("12.5", "12.50") to cents, or null when it is not an amount with at most two decimals. */
export function toCents(text) {
  const match = /^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

const CART_KEY = 'demo-shop.cart';
/** The cart, kept in this browser: product ids and quantities only (the shop's backend prices them). */
export const cart = {
  read() {
    try {
      const saved = JSON.parse(localStorage.getItem(CART_KEY) ?? 'null');
      return Array.isArray(saved) ? saved : [{ productId: 'mug', quantity: 2 }];
    } catch {
      return [{ productId: 'mug', quantity: 2 }];
    }
  },
  write(items) {
    localStorage.setItem(CART_KEY, JSON.stringify(items.filter((i) => i.quantity > 0)));
  },
};

/**
 * Follows the shop's live stream (its backend relays the service's websocket): `onOrder(view)` for every order that
 * changes, `onCallback(callback)` for every callback received. Returns a function that stops it.
 */
export function followLive({ onHello, onOrder, onCallback } = {}) {
  const source = new EventSource('/api/live');
  const on = (event, handler) => handler && source.addEventListener(event, (e) => handler(JSON.parse(e.data)));
  on('hello', onHello);
  on('order', onOrder);
  on('callback', onCallback);
  return () => source.close();
}

/**
 * Shows one order's status in `element` (text, and `data-status` / `data-transaction` for tests) and keeps it live.
 * Returns `show(order)`: it shows that order now and makes it the one followed.
 */
export function orderStatusView(element) {
  let followed = null;
  const show = (order) => {
    followed = order.orderId;
    element.textContent = `${order.statusName} (${order.status})`;
    element.dataset.status = String(order.status);
    element.dataset.transaction = order.transactionNumber;
  };
  followLive({ onOrder: (order) => order.orderId === followed && show(order) });
  return show;
}

/** "Name × quantity, …" for the cart's lines. */
export const cartSummary = (items, products) =>
  items.map(({ productId, quantity }) => `${products.find((p) => p.productId === productId)?.name ?? productId} × ${quantity}`).join(', ');

/** Shows a message in a status or alert element; `state` colours it (ok, error, busy). */
export function say(element, text, state) {
  element.textContent = text;
  element.dataset.state = state;
}

export function cell(text) {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

/**
 * The language switch of the checkout pages (`<select id="language">`, kept in `?lang=`): what the widget is asked to
 * speak (`auto` follows the browser). `onChange` gets the new choice; the page hands it to the SDK in place.
 */
export function languageSwitch(params, onChange) {
  const select = document.getElementById('language');
  const options = [...select.options].map((option) => option.value);
  select.value = options.includes(params.get('lang')) ? params.get('lang') : 'auto';
  select.addEventListener('change', () => {
    params.set('lang', select.value);
    history.replaceState(null, '', `?${params}`);
    onChange(select.value);
  });
  return select.value;
}
