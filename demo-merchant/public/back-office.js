// The back office: the shop's orders, live (the shop's backend relays the service's websocket over Server-Sent
// Events), what can be done with a payment afterwards, its callback delivery log, every transaction at the service
// (searched and paged there), the callbacks received and the sandbox clock. Every refusal shows the service's own code and detail.
import { api, cell, describe, followLive, money, say, toCents } from './shop.js';

const $ = (id) => document.getElementById(id);
const orders = new Map();
const params = new URLSearchParams(location.search);
let selected = null;

// ——— connection ———
async function showConnection(liveState) {
  try {
    const status = await api('/api/status');
    say(
      $('service-status'),
      status.service.reachable ? `reachable at ${status.service.url}` : `not reachable at ${status.service.url}`,
      status.service.reachable ? 'ok' : 'error',
    );
    say($('credentials-status'), status.credentials.loaded ? 'loaded' : `waiting for ${status.credentials.file}`, status.credentials.loaded ? 'ok' : 'error');
    say($('live-status'), liveState ?? status.live, (liveState ?? status.live) === 'connected' ? 'ok' : 'busy');
  } catch (error) {
    say($('service-status'), describe(error), 'error');
  }
}

// ——— orders ———
const statusText = (o) => (o.status === null ? 'not paid yet' : `${o.statusName} (${o.status})`);
const holdText = (o) => (o.authorization ? `${money(o.authorization.capturedCents, o.currency)} / ${money(o.authorization.availableCents, o.currency)}` : '—');
const refusalText = (o) => (o.lastRefusal ? `${o.lastRefusal.action}: ${o.lastRefusal.code}: ${o.lastRefusal.message}` : '');
const CHANNELS = { elements: 'Elements', iframe: 'iframe widget', express: 'Express', link: 'payment link', pos: 'terminal', saved_card: 'saved card' };

function renderOrders() {
  $('orders').replaceChildren(
    ...[...orders.values()].map((o) => {
      const row = document.createElement('tr');
      const first = document.createElement('td');
      const open = document.createElement('button');
      open.type = 'button';
      open.className = 'secondary';
      open.textContent = `Manage ${o.transactionNumber ?? o.orderId}`;
      open.addEventListener('click', () => select(o.orderId));
      first.append(open, document.createElement('br'), o.description);
      row.append(
        first,
        cell(`${CHANNELS[o.channel] ?? o.channel} · ${o.methodType}`),
        cell(money(o.amount, o.currency)),
        cell(statusText(o)),
        cell(holdText(o)),
        cell(refusalText(o)),
      );
      return row;
    }),
  );
}

function upsert(view) {
  const isNew = !orders.has(view.orderId);
  orders.set(view.orderId, view);
  if (isNew) {
    // newest first
    const entries = [...orders.entries()].sort((a, b) => b[1].createdAt.localeCompare(a[1].createdAt));
    orders.clear();
    for (const [k, v] of entries) orders.set(k, v);
  }
  renderOrders();
  if (selected === view.orderId) renderSelected();
  else if (!selected && (params.get('order') === view.orderId || (view.transactionNumber && params.get('transaction') === view.transactionNumber)))
    select(view.orderId);
}

// ——— one order ———
function renderSelected() {
  const o = orders.get(selected);
  $('order').hidden = false;
  $('order-title').textContent = `Order ${o.transactionNumber ?? o.orderId}`;
  const facts = [
    ['Order', o.orderId],
    ['Items', o.description],
    ['Paid with', `${CHANNELS[o.channel] ?? o.channel} · ${o.methodType}`],
    ['Amount', money(o.amount, o.currency)],
    ['Transaction', o.transactionNumber ?? '—'],
    ['Status', statusText(o)],
  ];
  if (o.refunds.length > 0 || o.refundableCents > 0) {
    facts.push(['Refunded', money(o.refundedCents, o.currency)], ['Refundable', money(o.refundableCents, o.currency)]);
  }
  if (o.authorization) {
    const a = o.authorization;
    facts.push(
      ['Authorized', money(a.authorizedCents, o.currency)],
      ['Captured', money(a.capturedCents, o.currency)],
      ['Released', money(a.releasedCents, o.currency)],
      ['Available', money(a.availableCents, o.currency)],
      ['Hold', a.status],
    );
  }
  $('order-facts').replaceChildren(
    ...facts.flatMap(([term, value]) => {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = value;
      if (term === 'Status') Object.assign(dd, { id: 'order-status' }).dataset.status = String(o.status);
      return [dt, dd];
    }),
  );
  $('order-status').setAttribute('role', 'status');
  $('order-status').setAttribute('aria-label', 'Order status');
  $('order-refusal').textContent = o.lastRefusal ? `Refused (${o.lastRefusal.action}): ${o.lastRefusal.code}: ${o.lastRefusal.message}` : '';
  $('authorization-actions').hidden = o.holds !== 'authorization';
  $('saved-card-actions').hidden = o.holds !== 'saved_card';
  $('cancel-button').hidden = o.status !== 1;
  // Offered on any paid order: what cannot be refunded, the service refuses in its own words.
  $('refund-actions').hidden = o.transactionNumber === null || o.status === null || o.status === 1;
  $('refunds-region').hidden = o.refunds.length === 0;
  $('refunds').replaceChildren(
    ...o.refunds.map((r) => {
      const row = document.createElement('tr');
      row.append(cell(r.refundId), cell(money(r.amountCents, o.currency)), cell(r.reason), cell(r.failureCode ? `${r.status} (${r.failureCode})` : r.status));
      row.dataset.state = r.status === 'succeeded' ? 'ok' : r.status === 'failed' ? 'error' : 'busy';
      return row;
    }),
  );
  for (const span of document.querySelectorAll('.currency')) span.textContent = o.currency;
}

function select(orderId) {
  selected = orderId;
  const o = orders.get(orderId);
  $('amount').value = o.authorization ? (o.authorization.availableCents / 100).toFixed(2) : '';
  $('charge-amount').value = (o.amount / 100).toFixed(2);
  $('refund-amount').value = '';
  say($('action-result'), '', '');
  renderSelected();
  loadDeliveries();
}

const ACTIONS = {
  capture: { label: 'Capture', amount: 'amount' },
  reauthorize: { label: 'Re-authorization', amount: 'amount' },
  void: { label: 'Void' },
  'close-auth': { label: 'Close authorization' },
  charge: { label: 'Charge', amount: 'charge-amount' },
  refund: { label: 'Refund', amount: 'refund-amount', optional: true, extra: () => ({ reason: $('refund-reason').value }) },
  cancel: { label: 'Cancel' },
  refresh: { label: 'Refresh' },
};
for (const button of document.querySelectorAll('#order button[data-action]')) {
  button.addEventListener('click', async () => {
    const action = ACTIONS[button.dataset.action];
    const o = orders.get(selected);
    let body = action.extra?.() ?? {};
    if (action.amount && !(action.optional && $(action.amount).value.trim() === '')) {
      const cents = toCents($(action.amount).value);
      if (cents === null || cents === 0) {
        say($('action-result'), 'Enter an amount such as 10.00.', 'error');
        return;
      }
      body = { ...body, amount: cents };
    }
    button.disabled = true;
    say($('action-result'), `${action.label}…`, 'busy');
    try {
      const view = await api(`/api/orders/${o.orderId}/${button.dataset.action}`, body);
      upsert(view);
      if (view.orderId !== o.orderId) select(view.orderId); // a charge of a saved card is an order of its own
      say($('action-result'), `${action.label} done: ${statusText(view)}`, 'ok');
    } catch (error) {
      say($('action-result'), `${action.label} refused: ${describe(error)}`, 'error');
      api(`/api/orders/${o.orderId}`).then(upsert, () => undefined);
    } finally {
      button.disabled = false;
      loadDeliveries();
    }
  });
}

// ——— the callback delivery log of the selected order ———
let deliveriesTimer = null;
async function loadDeliveries() {
  clearTimeout(deliveriesTimer);
  if (!selected) return;
  const orderId = selected;
  let log;
  try {
    log = await api(`/api/orders/${orderId}/callbacks`);
  } catch (error) {
    $('deliveries').replaceChildren(Object.assign(document.createElement('tr'), { textContent: describe(error) }));
    return;
  }
  if (orderId !== selected) return;
  $('deliveries').replaceChildren(
    ...log.deliveries.map((d) => {
      const row = document.createElement('tr');
      const attempts = d.attempts.map((a) => `${a.httpStatus ?? a.error ?? '—'} at ${new Date(a.at).toLocaleTimeString()}`).join(', ') || 'none yet';
      const actions = document.createElement('td');
      const redeliver = document.createElement('button');
      redeliver.type = 'button';
      redeliver.className = 'secondary';
      redeliver.textContent = `Redeliver update ${d.sequence}`;
      redeliver.addEventListener('click', async () => {
        redeliver.disabled = true;
        try {
          await api(`/api/callbacks/${encodeURIComponent(d.deliveryId)}/redeliver`, {});
          say($('action-result'), `Update ${d.sequence} is sent again.`, 'ok');
        } catch (error) {
          say($('action-result'), `Redeliver refused: ${describe(error)}`, 'error');
        }
        loadDeliveries();
      });
      actions.append(redeliver);
      row.append(
        cell(`#${d.sequence}`),
        cell(d.status),
        cell(`${d.attempts.length}: ${attempts}`),
        cell(d.nextAttemptAt ? new Date(d.nextAttemptAt).toLocaleString() : '—'),
        actions,
      );
      row.dataset.state = d.status === 'succeeded' ? 'ok' : d.status === 'failed' ? 'error' : 'busy';
      return row;
    }),
  );
  // While a delivery is on its way, follow it (the service does not push its delivery log).
  if (log.deliveries.some((d) => d.status === 'pending')) deliveriesTimer = setTimeout(loadDeliveries, 1000);
}

// ——— every transaction at the service: searched and paged there, newest first ———
// The cursor of each page shown so far (null: the first), so Previous goes back the way Next came.
const search = { q: '', status: '', cursors: [null], next: null };

async function loadTransactions() {
  const query = new URLSearchParams();
  if (search.q) query.set('q', search.q);
  if (search.status) query.set('status', search.status);
  const cursor = search.cursors.at(-1);
  if (cursor) query.set('startingAfter', cursor);
  say($('transactions-result'), 'Searching…', 'busy');
  let page;
  try {
    page = await api(`/api/transactions?${query}`);
  } catch (error) {
    say($('transactions-result'), `Search refused: ${describe(error)}`, 'error');
    return;
  }
  if ($('transactions-status').options.length === 1) {
    $('transactions-status').append(...page.statuses.map((s) => new Option(`${s.statusName} (${s.status})`, String(s.status))));
    $('transactions-status').value = search.status;
  }
  search.next = page.nextCursor;
  $('transactions').replaceChildren(
    ...page.transactions.map((t) => {
      const row = document.createElement('tr');
      row.append(
        cell(t.transactionNumber),
        cell(new Date(t.createdAt).toLocaleString()),
        cell(t.methodType),
        cell(t.amountCents === null ? '—' : money(t.amountCents, t.currency)),
        cell(`${t.statusName} (${t.status})`),
        cell(t.confirmationNumber ?? '—'),
        cell(t.lastFourDigits ? `ending in ${t.lastFourDigits}` : '—'),
        cell(t.installments === null ? '—' : String(t.installments)),
        cell(t.threeDSecure ?? (t.lastDeclineCode ? `last decline: ${t.lastDeclineCode}` : '—')),
      );
      return row;
    }),
  );
  const pageNumber = search.cursors.length;
  say(
    $('transactions-result'),
    page.transactions.length === 0
      ? 'No transaction matches.'
      : `Page ${pageNumber}: ${page.transactions.length} transactions${page.hasMore ? ', more on the next page' : ''}.`,
    'ok',
  );
  $('transactions-previous').disabled = pageNumber === 1;
  $('transactions-next').disabled = !page.hasMore;
}

$('transactions-search').addEventListener('submit', (event) => {
  event.preventDefault();
  Object.assign(search, { q: $('transactions-q').value.trim(), status: $('transactions-status').value, cursors: [null] });
  loadTransactions();
});
$('transactions-next').addEventListener('click', () => {
  if (!search.next) return;
  search.cursors.push(search.next);
  loadTransactions();
});
$('transactions-previous').addEventListener('click', () => {
  if (search.cursors.length > 1) search.cursors.pop();
  loadTransactions();
});
loadTransactions();

// ——— the sandbox clock ———
function showClock(clock) {
  $('clock-now').textContent = new Date(clock.now).toLocaleString();
  $('clock-offset').textContent = `${clock.offsetSeconds} s`;
}
api('/api/clock').then(showClock, (error) => say($('clock-error'), describe(error), 'error'));
$('clock-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  say($('clock-error'), '', '');
  try {
    showClock(await api('/api/clock/advance', { seconds: Number($('clock-seconds').value) }));
    if (selected) await api(`/api/orders/${selected}/refresh`, {}).then(upsert);
    loadDeliveries();
  } catch (error) {
    say($('clock-error'), describe(error), 'error');
  }
});

// ——— callbacks received ———
function callbackRow(c) {
  const row = document.createElement('tr');
  row.append(
    cell(new Date(c.at).toLocaleTimeString()),
    cell(c.transactionNumber ?? '—'),
    cell(c.statusName ? `${c.statusName} (${c.status})` : '—'),
    cell(c.verified ? 'verified' : 'INVALID'),
    cell(String(c.answeredStatus)),
  );
  return row;
}
api('/api/callbacks').then(({ refusing, callbacks }) => {
  $('refuse-callbacks').checked = refusing;
  $('callbacks').replaceChildren(...callbacks.map(callbackRow));
});
$('refuse-callbacks').addEventListener('change', async (event) => {
  const { refusing } = await api('/api/callbacks/mode', { refusing: event.target.checked }, 'PUT');
  event.target.checked = refusing;
});

followLive({
  onHello: ({ live, orders: views }) => {
    showConnection(live);
    for (const view of views.reverse()) upsert(view);
  },
  onOrder: upsert,
  onCallback: (c) => {
    $('callbacks').prepend(callbackRow(c));
    if (selected && orders.get(selected)?.transactionNumber === c.transactionNumber) loadDeliveries();
  },
});
