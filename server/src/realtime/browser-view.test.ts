import { BrowserTransactionSchema, Status, type CommitResponse, type SdkSession, type Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { bearer } from '../test/app';
import { isSubscribed, isUpdate, useRealtimeApp, type TestSocket } from './testing';

/**
 * Browser sockets (`?session=`, `?link=`) get the browser view of every update, live and replayed: no commitLink, no
 * token, no POS data. The merchant's socket and status query get the whole transaction.
 */
const SHOP = 'https://shop.example.com';
const POS_DATA = { till: 4, cashier: 'Grace' };
const t = useRealtimeApp({ merchantName: 'Browser View Shop', origins: [SHOP] });

const serviceOrigin = () => new URL(t.app.env.PUBLIC_BASE_URL).origin;
const linkOf = (transaction: Pick<Transaction, 'transactionPage'>) => transaction.transactionPage.qrURL.split('/pay/')[1]!;

/** Subscribes and waits for `subscribed` (after the replayed updates, with `afterSequence`). */
async function follow(on: TestSocket, transactionNumber: string, afterSequence?: number): Promise<void> {
  on.send({ type: 'subscribe', transactionNumber, ...(afterSequence === undefined ? {} : { afterSequence }) });
  await on.next(isSubscribed);
}

/** What a browser may see: the browser view, and nothing in its text that commits, spends or is the merchant's POS data. */
function expectBrowserView(transaction: Transaction, secrets: string[]): void {
  BrowserTransactionSchema.strict().parse(transaction);
  expect(transaction.paymentCommit.commitLink).toBeNull();
  expect(transaction.paymentDetails).toBeNull();
  expect(transaction.posData).toBeNull();
  const text = JSON.stringify(transaction);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

/** An authorize widget payment, approved in the widget, waiting for the merchant's commit. */
async function widgetPayment(): Promise<{ session: SdkSession; transaction: Transaction }> {
  const session = (await (
    await t.app.request('/sdk/sessions', { headers: { origin: SHOP }, body: { clientId: t.merchant.clientId, methodType: 'authorize', mode: 'sandbox' } })
  ).json()) as SdkSession;
  const paid = await t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
    headers: { authorization: `Bearer ${session.sessionToken}`, origin: SHOP },
    body: { method: 'paypal', amount: 900, currency: 'USD' },
  });
  expect(paid.status).toBe(200);
  return { session, transaction: (await paid.json()) as Transaction };
}

/** Each browser socket's credential for the payment: its session token from the shop's page, its link from the service's. */
const browserSocket = {
  session: (payment: { session: SdkSession }) => ({ query: { session: payment.session.sessionToken }, origin: SHOP }),
  link: (payment: { transaction: Transaction }) => ({ query: { link: linkOf(payment.transaction) }, origin: serviceOrigin() }),
};

describe('a widget payment over the sockets', () => {
  it.each(['session', 'link'] as const)('reaches a %s socket as the browser view, live and replayed, and the merchant socket whole', async (via) => {
    const payment = await widgetPayment();
    const number = payment.transaction.TransactionNumber;
    const live = await t.socket(browserSocket[via](payment));
    const merchantSocket = await t.socket({ headers: bearer(t.merchant.apiKey) });
    for (const on of [live, merchantSocket]) await follow(on, number);

    const committed = await t.client.call<CommitResponse>('POST', `/transactions/${number}/commit`, { amount: 900, currency: 'USD', posData: POS_DATA });
    expect(committed.status).toBe(200);
    const token = committed.body.paymentDetails!.token;
    const full = (await t.client.get(number)).body;
    // The merchant's status query has all three.
    expect(full.paymentCommit.commitLink).toMatch(/\/transactions\/commitPayment\/cmt_/);
    expect(full).toMatchObject({ status: Status.Authorized, paymentDetails: { type: 'authorization', token }, posData: POS_DATA });
    const secrets = [full.paymentCommit.commitLink!, token, POS_DATA.cashier];

    const update = await live.next(isUpdate);
    expect(update.transaction).toMatchObject({ TransactionNumber: number, status: Status.Authorized, sequence: full.sequence });
    expectBrowserView(update.transaction, secrets);
    expect((await merchantSocket.next(isUpdate)).transaction).toEqual(full);

    // Replayed from the start: the payment's creation (its stored event has the commitLink) and the commit.
    const replayed = await t.socket(browserSocket[via](payment));
    await follow(replayed, number, 0);
    expect(replayed.updates().map((u) => u.sequence)).toEqual([1, full.sequence]);
    for (const u of replayed.updates()) expectBrowserView(u.transaction, secrets);
    const replayedMerchant = await t.socket({ headers: bearer(t.merchant.apiKey) });
    await follow(replayedMerchant, number, 0);
    const [created, last] = replayedMerchant.updates();
    expect(created!.transaction.paymentCommit.commitLink).toBe(full.paymentCommit.commitLink);
    expect(last!.transaction).toEqual(full);
  });
});
