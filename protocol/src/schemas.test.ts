import { describe, expect, it } from 'vitest';
import { API_ERRORS, ApiErrorCodeSchema } from './error-codes';
import { InitTransactionRequestSchema } from './init-request';
import { problemFor, ProblemDetailsSchema } from './problem';
import { TRANSACTION_STATUSES } from './constants';
import { Status, statusName } from './status';

describe('status table', () => {
  it('has the sixteen statuses of docs/integrating.md#statuses, numbered 0 to 15', () => {
    expect(TRANSACTION_STATUSES.map((s) => s.status)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(Status.Approved).toBe(0);
    expect(Status.AwaitingCommit).toBe(10);
    expect(statusName(9)).toBe('AuthorizationClosed');
    expect(Status.PartiallyRefunded).toBe(13);
    expect(statusName(14)).toBe('Refunded');
    expect(Status.AwaitingAuthentication).toBe(15);
  });
});

describe('error codes', () => {
  it('carry an HTTP status in the error ranges and a title', () => {
    for (const [code, { status, title }] of Object.entries(API_ERRORS)) {
      expect(code).toMatch(/^[a-z_]+$/);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(title.length).toBeGreaterThan(5);
    }
    expect(ApiErrorCodeSchema.safeParse('no_such_code').success).toBe(false);
  });

  it('build problem details that parse with their own schema', () => {
    const problem = problemFor('amount_exceeds_available', 'Only 5.00 USD is left.', 'req-1', [{ path: 'amount', message: 'too large' }]);
    expect(ProblemDetailsSchema.parse(problem)).toEqual({
      type: '/docs/errors#amount_exceeds_available',
      title: API_ERRORS.amount_exceeds_available.title,
      status: 409,
      detail: 'Only 5.00 USD is left.',
      code: 'amount_exceeds_available',
      errors: [{ path: 'amount', message: 'too large' }],
      requestId: 'req-1',
    });
  });
});

describe('InitTransactionRequestSchema', () => {
  const parse = (body: unknown) => InitTransactionRequestSchema.safeParse(body);
  const paths = (body: unknown) => {
    const result = parse(body);
    return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
  };

  it('accepts the spec sample with methodType in any letter case', () => {
    const result = parse({ amount: 10, currency: 'usd', methodType: 'Authorize', callbackMethod: 'get', apiKey: 'sk_x' });
    expect(result.success && result.data).toMatchObject({ currency: 'USD', methodType: 'authorize', callbackMethod: 'GET' });
  });

  it('accepts an amount left blank for a future authorization', () => {
    expect(parse({ currency: 'EUR', methodType: 'authorize' }).success).toBe(true);
    expect(parse({ amount: '', currency: 'EUR', methodType: 'authorize' }).success).toBe(true);
    expect(parse({ amount: null, currency: 'EUR', methodType: 'authorize' }).success).toBe(true);
  });

  it('refuses more than two decimals, fractional cents, zero and negatives', () => {
    expect(paths({ amount: 10.005, currency: 'USD' })).toEqual(['amount']);
    expect(paths({ amount: 10.5, isCent: true, currency: 'USD' })).toEqual(['amount']);
    expect(paths({ amount: 0, currency: 'USD' })).toEqual(['amount']);
    expect(paths({ amount: -1, currency: 'USD' })).toEqual(['amount']);
  });

  it('refuses unknown currencies, unknown fields and bad callback URLs with their paths', () => {
    expect(paths({ amount: 1, currency: 'GBP' })).toEqual(['currency']);
    expect(paths({ amount: 1, currency: 'USD', amout: 2 })).toEqual(['']);
    expect(paths({ amount: 1, currency: 'USD', callbackURL: 'ftp://x.example.com' })).toEqual(['callbackURL']);
    expect(paths({ amount: 1, currency: 'USD', methodType: 'refund' })).toEqual(['methodType']);
  });

  it('checks product amounts in the unit of the transaction', () => {
    expect(paths({ currency: 'USD', products: [{ name: 'Tea', quantity: 2, amount: 3.333 }] })).toEqual(['products.0.amount']);
    expect(paths({ currency: 'USD', isCent: true, products: [{ name: 'Tea', quantity: 2, amount: 333, vat: 0.5 }] })).toEqual(['products.0.vat']);
    expect(paths({ currency: 'USD', products: [{ name: 'Tea', quantity: 0, amount: 3 }] })).toEqual(['products.0.quantity']);
  });

  it('refuses timeOut together with timeoutDate', () => {
    expect(paths({ amount: 1, currency: 'USD', timeOut: 60, timeoutDate: '2030-01-01T00:00:00Z' })).toEqual(['timeoutDate']);
  });
});
