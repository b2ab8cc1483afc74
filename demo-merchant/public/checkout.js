// The merchant page: loads the Elements SDK from the service (with its SRI hash), lets the consumer pay in the widget,
// then asks this shop's backend to commit the payment. The backend holds the API key, decides the amount (the order's)
// and keeps the payment token; the page only knows the client ID, its order id and the outcome.
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
  const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  const answer = await res.json();
  if (!res.ok) throw new Error(answer.message ?? `HTTP ${res.status}`);
  return answer;
}

function loadScript(src, integrity) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    // The browser refuses the script unless its sha384 matches; a cross-origin integrity check needs CORS.
    script.integrity = integrity;
    script.crossOrigin = 'anonymous';
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.append(script);
  });
}

const money = (cents, currency) => `${(cents / 100).toFixed(2)} ${currency}`;
let config;
let order;
try {
  config = await backend('/api/config');
  // The shop's backend creates the order: its amount is the one committed, whatever this page sends.
  order = await backend('/api/checkout/order', {});
  await loadScript(config.sdkUrl, config.sdkIntegrity);
} catch (error) {
  payButton.disabled = true;
  say(`The checkout is not available: ${error.message}`, 'error');
  throw error;
}
const total = money(order.amount, order.currency);
document.getElementById('order-total').textContent = total;
payButton.textContent = `Pay ${total}`;
captureButton.textContent = `Capture ${total}`;
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
      const committed = await backend('/api/checkout/commit', { orderId: order.orderId, transactionNumber: transaction.TransactionNumber });
      say(`${committed.statusName} (status ${committed.status}) · ${committed.transactionNumber}`, 'ok');
      outcome.dataset.status = String(committed.status);
      // Authorized (5): the shop may capture it; the token to do so never leaves its backend.
      if (committed.status === 5) {
        captureButton.hidden = false;
        captureButton.onclick = async () => {
          captureButton.disabled = true;
          try {
            const captured = await backend('/api/checkout/capture', { orderId: order.orderId });
            say(`${captured.statusName} (status ${captured.status}) · ${captured.transactionNumber}`, 'ok');
            outcome.dataset.status = String(captured.status);
            captureButton.hidden = true;
          } catch (error) {
            say(`The shop could not capture the payment: ${error.message}`, 'error');
          } finally {
            captureButton.disabled = false;
          }
        };
      }
    } catch (error) {
      say(`The shop could not confirm the payment: ${error.message}`, 'error');
    }
  }, { amount: order.amount, currency: order.currency });
});
