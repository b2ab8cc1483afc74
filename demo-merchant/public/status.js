// Shows whether the shop's backend reaches the payment service, has its credentials, and which callbacks arrived.
const service = document.getElementById('service-status');
const credentials = document.getElementById('credentials-status');
const callbacks = document.getElementById('callbacks');

function cell(text) {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

async function refresh() {
  try {
    const status = await (await fetch('/api/status')).json();
    service.textContent = status.service.reachable ? `reachable at ${status.service.url}` : `not reachable at ${status.service.url}`;
    service.dataset.state = status.service.reachable ? 'ok' : 'error';
    credentials.textContent = status.credentials.loaded ? 'loaded' : `waiting for ${status.credentials.file}`;
    credentials.dataset.state = status.credentials.loaded ? 'ok' : 'error';
    const list = await (await fetch('/api/callbacks')).json();
    callbacks.replaceChildren(
      ...list.callbacks.map((c) => {
        const row = document.createElement('tr');
        row.append(cell(new Date(c.at).toLocaleTimeString()), cell(c.transactionNumber ?? '—'), cell(c.statusName ?? '—'), cell(c.verified ? 'verified' : 'INVALID'));
        return row;
      }),
    );
  } catch {
    service.textContent = 'the shop backend does not answer';
    service.dataset.state = 'error';
  }
}

refresh();
setInterval(refresh, 3000);
