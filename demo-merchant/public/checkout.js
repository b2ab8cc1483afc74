// The merchant page: loads the Elements SDK from the service, lets the consumer pay in the widget, then asks this
// shop's backend to commit the payment (the backend holds the API key; the page only knows the client ID).
const AMOUNT = 2500;
const CURRENCY = 'USD';
const outcome = document.getElementById('outcome');
const payButton = document.getElementById('pay-button');
const captureButton = document.getElementById('capture-button');
const methodSelect = document.getElementById('method-type');
const methodType = new URLSearchParams(location.search).get('methodType') ?? 'manual_capture';
methodSelect.value = methodType;
methodSelect.addEventListener('change', () => {
  location.search = `?methodType=${methodSelect.value}`;
});

function say(text, state) {
  outcome.textContent = text;
  outcome.dataset.state = state;
}

async function backend(path, body) {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await res.json();
  if (!res.ok) throw new Error(answer.message ?? `HTTP ${res.status}`);
  return answer;
}

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.append(script);
  });
}

const config = await (await fetch('/api/config')).json();
await loadScript(config.sdkUrl);
const sdk = window.ServiceFrontEndSDK;
sdk.config({ mode: 'sandbox', clientId: config.clientId, methodType, visualizer: true });
sdk.error(({ code, message }) => say(`${message} (${code})`, 'error'));
// Pay is offered once the widget says the payment method is complete, and not while a payment runs.
let valid = false;
let paying = false;
const refreshButton = () => {
  payButton.disabled = !valid || paying;
};
payButton.disabled = true;
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
  say('Paying…', 'busy');
  sdk.pay(async (transaction) => {
    outcome.dataset.transaction = transaction.TransactionNumber;
    if (transaction.status !== 10) {
      say(`The payment ended with status ${transaction.statusName}.`, 'error');
      return;
    }
    try {
      const committed = await backend('/api/checkout/commit', { transactionNumber: transaction.TransactionNumber, amount: AMOUNT, currency: CURRENCY });
      say(`${committed.transaction.statusName} (status ${committed.transactionStatus}) · ${committed.transactionNumber}`, 'ok');
      outcome.dataset.status = String(committed.transactionStatus);
      if (committed.paymentDetails?.type === 'authorization') {
        captureButton.hidden = false;
        captureButton.onclick = async () => {
          const captured = await backend('/api/checkout/capture', { token: committed.paymentDetails.token, amount: AMOUNT });
          say(`${captured.transaction.statusName} (status ${captured.transaction.status}) · ${captured.transaction.TransactionNumber}`, 'ok');
          outcome.dataset.status = String(captured.transaction.status);
          captureButton.hidden = true;
        };
      }
    } catch (error) {
      say(`The shop could not confirm the payment: ${error.message}`, 'error');
    }
  }, { amount: AMOUNT, currency: CURRENCY });
});
