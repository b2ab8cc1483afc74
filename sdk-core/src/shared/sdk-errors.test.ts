/** paymentError: how a refusal of the service reads as an SDK error. */
import { expect } from '@open-wc/testing';
import { paymentError } from './sdk-errors';

const refusal = (code: string, paths: string[]) => ({ status: 400, code, detail: 'amount: must be greater than 0', paths, requestId: null });

describe('paymentError', () => {
  it('a refused amount or currency is invalid_amount, the one amount code of every SDK', () => {
    expect(paymentError(refusal('validation_failed', ['amount'])).code).to.equal('invalid_amount');
    expect(paymentError(refusal('validation_failed', ['currency'])).code).to.equal('invalid_amount');
  });
});
