import { describe, expect, it } from 'vitest';
import { BrowserTransactionSchema, toBrowserTransaction, type Transaction } from './transaction';

/** Only what the browser view changes; the rest of the object is copied as it is. */
const transaction = {
  TransactionNumber: 'T1',
  posData: { till: 4 },
  paymentCommit: {
    messsage: 'Waiting',
    isPaymentCommitted: false,
    secondsToCommit: 600,
    commitLink: 'https://pay.example.com/transactions/commitPayment/cmt_x',
  },
  paymentDetails: { type: 'authorization', token: 'auth_x' },
  refunds: [
    {
      refundId: 'rf_1',
      amountCents: 500,
      currency: 'USD',
      status: 'failed',
      reason: 'fraudulent',
      description: 'suspected fraud: the card was reported stolen',
      failureCode: 'refund_declined',
      processorReference: null,
      createdAt: '2026-11-27T00:00:00.000Z',
      updatedAt: '2026-11-27T00:00:01.000Z',
    },
  ],
} as unknown as Transaction;

describe('toBrowserTransaction', () => {
  it("leaves out the commitLink, the token, the POS data and each refund's reason, note and failure code", () => {
    const seen = toBrowserTransaction(transaction);
    expect(seen.paymentCommit.commitLink).toBeNull();
    expect(seen.paymentDetails).toBeNull();
    expect(seen.posData).toBeNull();
    expect(seen.refunds).toEqual([{ ...transaction.refunds[0], reason: null, description: null, failureCode: null, processorReference: null }]);
    const text = JSON.stringify(seen);
    for (const secret of ['cmt_x', 'auth_x', 'till', 'fraudulent', 'suspected fraud', 'refund_declined']) expect(text).not.toContain(secret);
    expect(transaction.refunds[0]!.description).toBe('suspected fraud: the card was reported stolen');
  });
});

describe('BrowserTransactionSchema', () => {
  it("refuses a refund that carries the merchant's reason, note or failure code", () => {
    const refund = { ...transaction.refunds[0]!, reason: null, description: null, failureCode: null, processorReference: null };
    const refundsField = BrowserTransactionSchema.shape.refunds;
    expect(refundsField.safeParse([refund]).success).toBe(true);
    for (const leak of [{ reason: 'fraudulent' }, { description: 'stolen' }, { failureCode: 'refund_declined' }]) {
      expect(refundsField.safeParse([{ ...refund, ...leak }]).success, JSON.stringify(leak)).toBe(false);
    }
  });
});
