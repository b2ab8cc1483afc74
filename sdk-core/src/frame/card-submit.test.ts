/**
 * submitCardForm when something throws on the way (a defect, not a refusal: here, showing the bank's page of a 3-D
 * Secure challenge): the error reaches the caller, and the card fields are editable again, not left read-only and busy.
 * And the order of a payment's first task: the request is sent first, the busy form drawn after it in the same task.
 */
import { expect } from '@open-wc/testing';
import { resetApiMock, startApiMock } from '../testing/api-mock';
import { renderCardForm } from './card-form-markup';
import { mountCardForm, type CardForm } from './card-form';
import { submitCardForm } from './card-submit';

describe('submitCardForm', () => {
  let root: HTMLElement;
  let form: CardForm;
  const input = (id: string) => root.querySelector<HTMLInputElement>(`#${id}`)!;
  const type = (id: string, text: string) => {
    input(id).value = text;
    input(id).dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: text }));
  };

  before(() => startApiMock());
  beforeEach(() => {
    root = document.createElement('section');
    document.body.append(root);
    renderCardForm(root);
    form = mountCardForm(root, { onChange: () => undefined });
  });
  afterEach(() => {
    root.remove();
    resetApiMock();
  });

  it('gives the fields back when showing the bank page throws, and passes the error on', async () => {
    // The sandbox's challenge card: the test server's fake bank answers 202 requires_action.
    type('number', '4000000000003220');
    type('expiry', '12/34');
    type('cvc', '123');
    const session = { sessionId: 'ses_submit', sessionToken: 'tok_submit', apiBase: location.origin, debug: false };
    const defect = new TypeError('the dialog could not be shown');
    let thrown: unknown = null;
    try {
      await submitCardForm(form, session, { amount: 500, currency: 'USD' }, undefined, undefined, () => {
        expect(input('number').readOnly, 'read-only while the payment runs').to.equal(true);
        throw defect;
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.equal(defect);
    expect(['number', 'expiry', 'cvc'].map((id) => input(id).readOnly)).to.deep.equal([false, false, false]);
    expect(root.querySelector('form')!.getAttribute('aria-busy')).to.equal('false');
    expect(input('number').value, 'the card is still there to pay again').to.equal('4000 0000 0000 3220');
  });

  it('sends the payment before drawing the form busy, and draws it busy in the same task', async () => {
    type('number', '4242424242424242');
    type('expiry', '12/34');
    type('cvc', '123');
    const session = { sessionId: 'ses_order', sessionToken: 'tok_order', apiBase: location.origin, debug: false };
    const realFetch = window.fetch;
    const readOnlyWhenSent: boolean[] = [];
    window.fetch = (...args: Parameters<typeof fetch>) => {
      readOnlyWhenSent.push(input('number').readOnly);
      return realFetch(...args);
    };
    let submitted: ReturnType<typeof submitCardForm>;
    try {
      submitted = submitCardForm(form, session, { amount: 500, currency: 'USD' });
    } finally {
      window.fetch = realFetch;
    }
    expect(readOnlyWhenSent, 'one request, sent before the form was drawn busy').to.deep.equal([false]);
    expect(root.querySelector('form')!.getAttribute('aria-busy'), 'busy before the task ends').to.equal('true');
    expect(input('number').readOnly).to.equal(true);
    const outcome = await submitted;
    expect(outcome.ok).to.equal(true);
    expect(root.querySelector('form')!.getAttribute('aria-busy')).to.equal('false');
  });
});
