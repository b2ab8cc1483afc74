/**
 * The fake /sdk API the widgets' tests run against keeps the service's rules on the number of payments: a session's
 * `maxInstallments` is what the page asked for (1 when the processor takes none), one outside 1…36 is refused rather
 * than clamped, and a payment may not name more than its session allows.
 */
import { expect } from '@open-wc/testing';
import { answerPayment, answerSession } from './api-fixtures.js';

const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };
let counter = 0;
/** A session of the fake, and the token its payments go with. */
function session(body: Record<string, unknown>) {
  counter += 1;
  const answer = answerSession({ clientId: 'ck_test', ...body }, counter);
  return { answer, authorization: `Bearer tok_${counter}` };
}
const paths = (answer: { body: unknown }) => ((answer.body as { errors?: Array<{ path: string }> }).errors ?? []).map((error) => error.path);

describe('the fake /sdk API and installments', () => {
  it('gives the session the number of payments asked for, 1 when none was asked', () => {
    expect(session({ maxInstallments: 12 }).answer.body).to.deep.include({ maxInstallments: 12 });
    expect(session({}).answer.body).to.deep.include({ maxInstallments: 1 });
  });

  it('gives 1 when the processor takes no installments, whatever was asked', () => {
    expect(session({ clientId: 'ck_noinstallments', maxInstallments: 6 }).answer.body).to.deep.include({ maxInstallments: 1 });
  });

  for (const asked of [0, 37, 2.5, '6']) {
    it(`refuses a session asking for ${JSON.stringify(asked)} payments (400 validation_failed), rather than clamping`, () => {
      const { answer } = session({ maxInstallments: asked });
      expect(answer.status).to.equal(400);
      expect(answer.body).to.deep.include({ code: 'validation_failed' });
      expect(paths(answer)).to.deep.equal(['maxInstallments']);
    });
  }

  it("takes a payment within the session's maxInstallments, and refuses one above it", () => {
    const { authorization } = session({ maxInstallments: 3 });
    expect(answerPayment({ method: 'card', card: CARD, installments: 3 }, authorization).status).to.equal(200);
    const refused = answerPayment({ method: 'card', card: CARD, installments: 4 }, authorization);
    expect(refused.status).to.equal(400);
    expect(refused.body).to.deep.include({ code: 'validation_failed' });
    expect(paths(refused)).to.deep.equal(['installments']);
  });

  it('refuses installments that are not a number of payments, and more than one on a session without installments', () => {
    const { authorization } = session({});
    expect(paths(answerPayment({ method: 'card', card: CARD, installments: 0 }, authorization))).to.deep.equal(['installments']);
    expect(paths(answerPayment({ method: 'card', card: CARD, installments: 2 }, authorization))).to.deep.equal(['installments']);
    expect(answerPayment({ method: 'card', card: CARD, installments: 1 }, authorization).status).to.equal(200);
  });
});
