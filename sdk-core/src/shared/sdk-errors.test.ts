/** paymentError and transactionError: how a refusal of the service, or a payment's unpaid end, reads as an SDK error. */
import { expect } from '@open-wc/testing';
import { Status } from '@svc/protocol/status';
import { paymentError, transactionError } from './sdk-errors';

const refusal = (code: string, paths: string[]) => ({ status: 400, code, detail: 'amount: must be greater than 0', paths, requestId: null });
const problem = (status: number, code: string) => ({ status, code, detail: null, paths: [], requestId: 'req_1' });

describe('paymentError', () => {
  it('a refused amount or currency is invalid_amount, the one amount code of every SDK', () => {
    expect(paymentError(refusal('validation_failed', ['amount'])).code).to.equal('invalid_amount');
    expect(paymentError(refusal('validation_failed', ['currency'])).code).to.equal('invalid_amount');
  });

  it("a processor's decline is the shopper's to act on, never an outage to try again later", () => {
    expect(paymentError(problem(402, 'card_declined')).code).to.equal('card_declined');
    expect(paymentError(problem(402, 'insufficient_funds')).code).to.equal('insufficient_funds');
    expect(paymentError(problem(402, 'authentication_failed')).code).to.equal('authentication_failed');
    for (const code of ['expired_card', 'incorrect_cvc']) expect(paymentError(problem(402, code)).code, code).to.equal('card_declined');
    expect(paymentError(problem(502, 'processor_failure')).code).to.equal('processor_failure');
  });
});

describe('transactionError', () => {
  it('reads as the refusal of the same decline reads, word for word', () => {
    for (const code of ['card_declined', 'insufficient_funds', 'authentication_failed']) {
      expect(transactionError({ status: Status.Declined, lastDeclineCode: code }), code).to.deep.equal(paymentError(problem(402, code)));
    }
    expect(transactionError({ status: Status.Declined, lastDeclineCode: null })).to.deep.equal(paymentError(problem(402, 'card_declined')));
  });

  it("a Failed transaction is the processor's failure", () => {
    expect(transactionError({ status: Status.Failed, lastDeclineCode: null })).to.deep.equal(paymentError(problem(502, 'processor_failure')));
  });
});
