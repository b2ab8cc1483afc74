/**
 * The card form mounted in a page, as a server-rendered page (the hosted page) or a page built in the browser uses it:
 * the markup's accessible names (docs/integrating.md#accessible-names), formatting as typed, validation reported without card data, errors as
 * accessible descriptions once shown, and the card handed out only when every field is valid.
 */
import { expect } from '@open-wc/testing';
import { renderCardForm } from './card-form-markup';
import { mountCardForm, type CardForm, type CardValidation } from './card-form';

describe('mountCardForm', () => {
  let root: HTMLElement;
  let form: CardForm;
  let changes: CardValidation[];
  const input = (id: string) => root.querySelector<HTMLInputElement>(`#${id}`)!;
  const labelOf = (id: string) => root.querySelector(`label[for="${id}"]`)?.textContent;
  const describedBy = (id: string) =>
    (input(id).getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((ref) => root.querySelector(`#${ref}`)?.textContent ?? '')
      .join(' ')
      .trim();
  const type = (id: string, text: string) => {
    input(id).focus();
    input(id).value = text;
    input(id).dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: text }));
  };

  beforeEach(() => {
    root = document.createElement('section');
    document.body.append(root);
    renderCardForm(root);
    changes = [];
    form = mountCardForm(root, { onChange: (validation) => changes.push(validation), now: () => new Date('2026-05-15T12:00:00Z') });
  });
  afterEach(() => root.remove());

  it('renders the three fields with the contract labels', () => {
    expect(['number', 'expiry', 'cvc'].map(labelOf)).to.deep.equal(['Card number', 'Expiry date (MM/YY)', 'Security code (CVC)']);
    expect(root.querySelector('form')!.getAttribute('aria-label')).to.equal('Card details');
    expect(changes.at(-1)).to.deep.equal({
      isValid: false,
      brand: null,
      errors: [
        { field: 'number', message: 'Enter the card number.' },
        { field: 'expiry', message: 'Enter the expiry date.' },
        { field: 'cvc', message: 'Enter the security code.' },
      ],
    });
  });

  it('formats as typed, shows an error as the field description after submit, and hands out the card once valid', () => {
    type('number', '4242424242424241');
    expect(input('number').value).to.equal('4242 4242 4242 4241');
    expect(describedBy('number'), 'not shown before blur or submit').to.equal('Visa');
    form.showAllErrors();
    expect(input('number').getAttribute('aria-invalid')).to.equal('true');
    expect(describedBy('number')).to.equal('Visa The card number is not valid.');
    expect(form.cardInput()).to.equal(null);
    type('number', '4242424242424242');
    type('expiry', '1230');
    type('cvc', '123');
    expect(input('expiry').value).to.equal('12/30');
    expect(changes.at(-1)).to.deep.equal({ isValid: true, brand: 'visa', errors: [] });
    expect(JSON.stringify(changes), 'no card data in what is reported').to.not.contain('4242');
    expect(form.cardInput()).to.deep.equal({ number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' });
  });

  it('a server error shows on its field until the field is edited; busy makes the fields read-only', () => {
    type('number', '4242424242424242');
    form.showServerErrorAt(['card.number', 'amount'], 'The card was not accepted.');
    expect(describedBy('number')).to.equal('Visa The card was not accepted.');
    type('number', '4242424242424242');
    expect(describedBy('number')).to.equal('Visa');
    form.setBusy(true);
    expect(input('cvc').readOnly).to.equal(true);
    expect(root.querySelector('form')!.getAttribute('aria-busy')).to.equal('true');
    form.clear();
    expect(input('number').value).to.equal('');
    expect(input('cvc').readOnly).to.equal(false);
  });
});
