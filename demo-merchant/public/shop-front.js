// The shop's front: the product list and the cart. Prices come from the shop's backend; the cart keeps ids only.
import { api, cart, money } from './shop.js';

const { currency, products } = await api('/api/catalogue');
const productList = document.getElementById('products');
const lines = document.getElementById('cart-lines');
const total = document.getElementById('cart-total');

function render() {
  const items = cart.read();
  lines.replaceChildren(
    ...items.map(({ productId, quantity }) => {
      const product = products.find((p) => p.productId === productId);
      const li = document.createElement('li');
      li.textContent = `${product?.name ?? productId} × ${quantity} — ${money((product?.priceCents ?? 0) * quantity, currency)} `;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'secondary';
      remove.textContent = `Remove one ${product?.name ?? productId}`;
      remove.addEventListener('click', () => change(productId, -1));
      li.append(remove);
      return li;
    }),
  );
  if (items.length === 0) lines.replaceChildren(Object.assign(document.createElement('li'), { textContent: 'Your cart is empty.' }));
  const sum = items.reduce((s, { productId, quantity }) => s + (products.find((p) => p.productId === productId)?.priceCents ?? 0) * quantity, 0);
  total.textContent = money(sum, currency);
}

function change(productId, by) {
  const items = cart.read();
  const line = items.find((i) => i.productId === productId);
  if (line) line.quantity = Math.max(0, Math.min(99, line.quantity + by));
  else if (by > 0) items.push({ productId, quantity: by });
  cart.write(items);
  render();
}

productList.replaceChildren(
  ...products.map((product) => {
    const li = document.createElement('li');
    const name = document.createElement('h3');
    name.textContent = product.name;
    const price = document.createElement('p');
    price.textContent = money(product.priceCents, currency);
    const add = document.createElement('button');
    add.type = 'button';
    add.textContent = `Add ${product.name} to the cart`;
    add.addEventListener('click', () => change(product.productId, 1));
    li.append(name, price, add);
    return li;
  }),
);
render();
