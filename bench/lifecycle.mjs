// One lifecycle sequence against the service, as a merchant and a consumer do it over HTTP:
//   init (merchant) → the consumer pays the link (authorize) → status (the merchant reads the token) → capture.
// Four requests: the token is only in the merchant's view of the transaction (the consumer's answer never carries
// it), so reading the status is part of every real capture flow. Methods and paths come from protocol's endpoint
// table (`endpointRequest`), as the merchant clients build them.
import { endpointRequest } from '../protocol/src/endpoint-path.ts';

/** @typedef {import('./load-client.mjs').Connection} Connection */
/** @typedef {(ms: number) => void} OnTime */
/** @typedef {(step: string, ms: number) => void} Recorder */
/** @typedef {{ TransactionNumber: string, status: number, transactionPage: { qrURL: string }, paymentDetails: { token: string } | null }} TransactionAnswer */

export const LIFECYCLE_STEPS = ['init', 'pay', 'status', 'capture'];

export const TEST_CARD = { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' };

/** @param {string} apiKey */
export function merchantHeaders(apiKey) {
  return { authorization: `Bearer ${apiKey}` };
}

/**
 * One endpoint of the table, called on `connection`.
 * @param {Connection} connection
 * @param {string} operationId
 * @param {import('./load-client.mjs').RequestOptions & { params?: Record<string, string> }} [options]
 */
export function callEndpoint(connection, operationId, { params, ...options } = {}) {
  const { method, path } = endpointRequest(operationId, params);
  return connection.request(method, path, options);
}

/**
 * POST /transactions/init for an authorization of `amountCents`.
 * @param {Connection} connection
 * @param {string} apiKey
 * @param {{ amountCents?: number, callbackURL?: string, onTime?: OnTime }} [options]
 * @returns {Promise<TransactionAnswer>}
 */
export function initAuthorization(connection, apiKey, { amountCents = 1000, callbackURL, onTime } = {}) {
  /** @type {Record<string, unknown>} */
  const body = { amount: amountCents, isCent: true, currency: 'USD', methodType: 'authorize' };
  if (callbackURL) body.callbackURL = callbackURL;
  return callEndpoint(connection, 'initTransaction', { body, headers: merchantHeaders(apiKey), onTime });
}

/**
 * The link id of a transaction's hosted page (the last segment of its `qrURL`).
 * @param {TransactionAnswer} transaction
 */
export function linkIdOf(transaction) {
  const linkId = new URL(transaction.transactionPage.qrURL).pathname.split('/').pop();
  if (!linkId) throw new Error(`transaction ${transaction.TransactionNumber} has no payment link`);
  return linkId;
}

/**
 * The consumer pays the link of `transaction` with the sandbox's approving test card.
 * @param {Connection} connection
 * @param {TransactionAnswer} transaction
 * @param {{ onTime?: OnTime }} [options]
 */
export function payLink(connection, transaction, { onTime } = {}) {
  return callEndpoint(connection, 'payPaymentLink', { params: { linkId: linkIdOf(transaction) }, body: { method: 'card', card: TEST_CARD }, onTime });
}

/**
 * @param {Connection} connection
 * @param {string} apiKey
 * @param {string} transactionNumber
 * @param {{ onTime?: OnTime }} [options]
 * @returns {Promise<TransactionAnswer>}
 */
export function readTransaction(connection, apiKey, transactionNumber, { onTime } = {}) {
  return callEndpoint(connection, 'getTransaction', { params: { transactionNumber }, headers: merchantHeaders(apiKey), onTime });
}

/**
 * @param {Connection} connection
 * @param {string} apiKey
 * @param {string} token
 * @param {number} amountCents
 * @param {{ onTime?: OnTime }} [options]
 */
export function capture(connection, apiKey, token, amountCents, { onTime } = {}) {
  return callEndpoint(connection, 'pay', { body: { token, amount: amountCents }, headers: merchantHeaders(apiKey), onTime });
}

/**
 * A hold ready to capture against: init, pay, status. Resolves with the transaction number and its token.
 * @param {Connection} connection
 * @param {string} apiKey
 * @param {{ amountCents?: number, callbackURL?: string, record?: Recorder }} [options]
 */
export async function createHold(connection, apiKey, { amountCents = 1000, callbackURL, record } = {}) {
  const created = await initAuthorization(connection, apiKey, { amountCents, callbackURL, onTime: record && ((ms) => record('init', ms)) });
  await payLink(connection, created, { onTime: record && ((ms) => record('pay', ms)) });
  const status = await readTransaction(connection, apiKey, created.TransactionNumber, { onTime: record && ((ms) => record('status', ms)) });
  const token = status.paymentDetails?.token;
  if (!token) throw new Error(`transaction ${created.TransactionNumber} has no token after the consumer paid (status ${status.status})`);
  return { transactionNumber: created.TransactionNumber, token, linkId: linkIdOf(created) };
}

/**
 * The whole sequence; `record(step, ms)` gets each request's round trip.
 * @param {Connection} connection
 * @param {string} apiKey
 * @param {{ callbackURL?: string, record?: Recorder }} [options]
 */
export async function runLifecycle(connection, apiKey, { callbackURL, record } = {}) {
  const hold = await createHold(connection, apiKey, { amountCents: 1000, callbackURL, record });
  await capture(connection, apiKey, hold.token, 1000, { onTime: record && ((ms) => record('capture', ms)) });
  return hold;
}
