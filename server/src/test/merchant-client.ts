import {
  endpointRequest,
  type ConsumerPayRequest,
  type InitTransactionRequest,
  type PaymentLinkState,
  type ProvisionedMerchant,
  type RefundRequest,
  type RefundResponse,
  type Transaction,
} from '@svc/protocol';
import type { TestApp } from './app';

/** The stable `code` of a problem+json answer's body (undefined for any other body). */
export const codeOf = (body: unknown): string | undefined =>
  typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'string' ? body.code : undefined;

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** A merchant's backend, as tests drive it: every call is real HTTP against the test app. */
export function merchantClient(app: Pick<TestApp, 'request'>, merchant: Pick<ProvisionedMerchant, 'apiKey'>, key: string = merchant.apiKey) {
  const call = async <T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> => {
    const res = await app.request(path, { method, headers: { authorization: `Bearer ${key}`, ...headers }, body });
    return { status: res.status, body: (await res.json()) as T, headers: res.headers };
  };
  // Paths from protocol's endpoint table, never typed here.
  const op = <T>(operationId: string, params: Record<string, string>, body?: unknown, headers?: Record<string, string>) => {
    const { method, path } = endpointRequest(operationId, params);
    return call<T>(method, path, body, headers);
  };
  return {
    call,
    init: (body: InitTransactionRequest, headers?: Record<string, string>) => op<Transaction>('initTransaction', {}, body, headers),
    get: (transactionNumber: string) => op<Transaction>('getTransaction', { transactionNumber }),
    cancel: (transactionNumber: string) => op<Transaction>('cancelTransaction', { transactionNumber }),
    pay: (body: { token?: string; transactionNumber?: string; amount: number; currency?: string }, headers?: Record<string, string>) =>
      op<{ payment: { paymentId: string; amountCents: number }; transaction: Transaction }>('pay', {}, body, headers),
    void: (body: { token?: string; transactionNumber?: string }) => op<Transaction>('void', {}, body),
    authorize: (body: { token: string; amount: number }) => op<Transaction>('authorize', {}, body),
    closeAuth: (transactionNumber: string) => op<Transaction>('closeAuthorization', { transactionNumber }),
    refund: (transactionNumber: string, body: RefundRequest = {}, headers?: Record<string, string>) =>
      op<RefundResponse>('refundTransaction', { transactionNumber }, body, headers),
    advanceClock: (seconds: number) => op<{ now: string; offsetSeconds: number }>('advanceSandboxClock', {}, { seconds }),
  };
}
export type MerchantClient = ReturnType<typeof merchantClient>;

/** The consumer's side of a payment link. */
export async function consumerPays(
  app: Pick<TestApp, 'request'>,
  transaction: Pick<Transaction, 'transactionPage'>,
  body: ConsumerPayRequest = TEST_CARD,
): Promise<Answer<PaymentLinkState>> {
  const linkId = transaction.transactionPage.qrURL.split('/pay/')[1]!;
  const res = await app.request(endpointRequest('payPaymentLink', { linkId }).path, { body });
  return { status: res.status, body: (await res.json()) as PaymentLinkState, headers: res.headers };
}

export const TEST_CARD: ConsumerPayRequest = { method: 'card', card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2099, cvc: '123' } };
export const BETA_CARD: ConsumerPayRequest = { method: 'card', card: { number: '5555555555554444', expMonth: 12, expYear: 2099, cvc: '123' } };
/** Approved, and every refund of it declined (`refund_declined`). */
export const REFUND_DECLINED_CARD: ConsumerPayRequest = { method: 'card', card: { number: '4000000000005126', expMonth: 12, expYear: 2099, cvc: '123' } };
export const cardNumbered = (number: string): ConsumerPayRequest => ({ method: 'card', card: { number, expMonth: 12, expYear: 2099, cvc: '123' } });

/** init an authorization of `amountCents` and have the consumer pay it: an active hold and its token. */
export async function authorizedHold(app: Pick<TestApp, 'request'>, client: MerchantClient, amountCents: number, card: ConsumerPayRequest = TEST_CARD) {
  const created = await client.init({ amount: amountCents, isCent: true, currency: 'USD', methodType: 'authorize' });
  if (created.status !== 200) throw new Error(`init failed: ${JSON.stringify(created.body)}`);
  const paid = await consumerPays(app, created.body, card);
  if (paid.status !== 200) throw new Error(`consumer payment failed: ${JSON.stringify(paid.body)}`);
  const after = await client.get(created.body.TransactionNumber);
  return { transactionNumber: created.body.TransactionNumber, token: after.body.paymentDetails!.token, transaction: after.body };
}

/** init a sale of `amountCents` and have the consumer pay it on its link: an Approved sale (status 0). */
export async function paidSale(
  app: TestApp,
  client: MerchantClient,
  amountCents: number,
  card: ConsumerPayRequest = TEST_CARD,
  extra: Partial<InitTransactionRequest> = {},
) {
  const created = await client.init({ amount: amountCents, isCent: true, currency: 'USD', ...extra });
  if (created.status !== 200) throw new Error(`init failed: ${JSON.stringify(created.body)}`);
  const paid = await consumerPays(app, created.body, card);
  if (paid.status !== 200) throw new Error(`consumer payment failed: ${JSON.stringify(paid.body)}`);
  return { transactionNumber: created.body.TransactionNumber, transaction: created.body };
}
