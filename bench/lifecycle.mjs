// One lifecycle sequence against the service, as a merchant and a consumer do it over HTTP:
//   init (merchant) → the consumer pays the link (authorize) → status (the merchant reads the token) → capture.
// Four requests: the token is only in the merchant's view of the transaction (the consumer's answer never carries
// it), so reading the status is part of every real capture flow.
export const LIFECYCLE_STEPS = ['init', 'pay', 'status', 'capture'];

export const TEST_CARD = { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' };

export function merchantHeaders(apiKey) {
  return { authorization: `Bearer ${apiKey}` };
}

/** POST /transactions/init for an authorization of `amountCents`. */
export function initAuthorization(connection, apiKey, { amountCents = 1000, callbackURL, onTime } = {}) {
  const body = { amount: amountCents, isCent: true, currency: 'USD', methodType: 'authorize' };
  if (callbackURL) body.callbackURL = callbackURL;
  return connection.request('POST', '/transactions/init', { body, headers: merchantHeaders(apiKey), onTime });
}

/** The consumer pays the link of `transaction` with the sandbox's approving test card. */
export function payLink(connection, transaction, { onTime } = {}) {
  const path = new URL(transaction.transactionPage.qrURL).pathname;
  return connection.request('POST', path, { body: { method: 'card', card: TEST_CARD }, onTime });
}

export function readTransaction(connection, apiKey, transactionNumber, { onTime } = {}) {
  return connection.request('GET', `/transactions/${transactionNumber}`, { headers: merchantHeaders(apiKey), onTime });
}

export function capture(connection, apiKey, token, amountCents, { onTime } = {}) {
  return connection.request('POST', '/transactions/pay', { body: { token, amount: amountCents }, headers: merchantHeaders(apiKey), onTime });
}

/** A hold ready to capture against: init, pay, status. Resolves with the transaction number and its token. */
export async function createHold(connection, apiKey, { amountCents = 1000, callbackURL, record } = {}) {
  const created = await initAuthorization(connection, apiKey, { amountCents, callbackURL, onTime: record && ((ms) => record('init', ms)) });
  await payLink(connection, created, { onTime: record && ((ms) => record('pay', ms)) });
  const status = await readTransaction(connection, apiKey, created.TransactionNumber, { onTime: record && ((ms) => record('status', ms)) });
  const token = status.paymentDetails?.token;
  if (!token) throw new Error(`transaction ${created.TransactionNumber} has no token after the consumer paid (status ${status.status})`);
  return { transactionNumber: created.TransactionNumber, token };
}

/** The whole sequence; `record(step, ms)` gets each request's round trip. */
export async function runLifecycle(connection, apiKey, { callbackURL, record } = {}) {
  const hold = await createHold(connection, apiKey, { amountCents: 1000, callbackURL, record });
  await capture(connection, apiKey, hold.token, 1000, { onTime: record && ((ms) => record('capture', ms)) });
  return hold;
}
