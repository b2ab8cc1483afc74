/** The wallet payment's answer, as the merchant page reads it: the browser view of the transaction, nothing more. */
import { expect } from '@open-wc/testing';
import type { SdkSession } from '@svc/protocol';
import { http, HttpResponse, resetApiMock, startApiMock, worker } from '../testing/api-mock';
import { makeTransaction } from '../testing/api-fixtures.js';
import { payWithWallet } from './api-client';

const session: SdkSession = {
  sessionId: 'ses_1',
  sessionToken: 'tok_1',
  paymentMethods: ['paypal'],
  expiresAt: '2030-01-01T00:00:00.000Z',
  maxInstallments: 1,
};
const pay = () => payWithWallet(location.origin, session, { method: 'paypal', amount: 1050, currency: 'USD' }, new AbortController().signal);
const answer = (body: unknown) =>
  worker.use(http.post('*/sdk/sessions/:sessionId/payments', () => HttpResponse.json(body as Record<string, unknown>), { once: true }));

describe('payWithWallet', () => {
  before(() => startApiMock());
  afterEach(() => resetApiMock());

  it('answers the transaction without a commitLink, token or POS data', async () => {
    const result = await pay();
    expect(result.ok).to.equal(true);
    const transaction = result.ok ? result.value : null;
    expect(transaction).to.include({ status: 10, posData: null, paymentDetails: null });
    expect(transaction!.paymentCommit).to.include({ isPaymentCommitted: false, commitLink: null });
  });

  for (const [what, leaked] of [
    [
      'a commitLink',
      {
        paymentCommit: {
          messsage: 'Waiting',
          isPaymentCommitted: false,
          secondsToCommit: 600,
          commitLink: 'http://localhost/transactions/commitPayment/cmt_x',
        },
      },
    ],
    ['a token', { paymentDetails: { type: 'authorization', token: 'auth_x' } }],
    ['POS data', { posData: { till: 4 } }],
  ] as const) {
    it(`refuses an answer that carries ${what}: it never reaches the page's code`, async () => {
      answer(makeTransaction(leaked));
      const result = await pay();
      expect(result.ok).to.equal(false);
      expect(!result.ok && result.error.code).to.equal('internal_error');
      expect(JSON.stringify(result)).to.not.match(/cmt_x|auth_x|till/);
    });
  }
});
