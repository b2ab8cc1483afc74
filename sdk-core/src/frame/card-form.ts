/**
 * Binds the card form's three inputs (the markup of card-form-markup.ts): formatting as typed (keeping the caret), brand display, validation as typed with
 * errors shown after blur or submit (aria-invalid + aria-describedby), and server-side field errors.
 */
import {
  brandOrDefault,
  detectBrand,
  digitsOf,
  formatCardNumber,
  formatExpiry,
  maxNumberLength,
  numberError,
  parseExpiry,
  validateCard,
  type CardBrand,
  type CardField,
  type CardTexts,
  type CardValues,
  type FieldError,
} from './card-rules';
import { CARD_MARKS, createMark } from '../shared/marks';
import type { CardInput } from '@svc/protocol';

/** The card as the payments endpoints take it: protocol's `CardInput`, the one type of that name. */
export type { CardInput };

export interface CardValidation {
  isValid: boolean;
  brand: string | null;
  errors: FieldError[];
}

const FIELDS: readonly CardField[] = ['number', 'expiry', 'cvc'];
const TEXT_KEYS = {
  number: { label: 'card.number.label', placeholder: 'card.number.placeholder' },
  expiry: { label: 'card.expiry.label', placeholder: 'card.expiry.placeholder' },
  cvc: { label: 'card.cvc.label', placeholder: 'card.cvc.placeholder' },
} as const;
/** The payments endpoint's problem paths (`errors[].path`) → the field that shows the error. */
const FIELD_OF_PATH: Readonly<Record<string, CardField>> = { 'card.number': 'number', 'card.expMonth': 'expiry', 'card.expYear': 'expiry', 'card.cvc': 'cvc' };

export class CardForm {
  readonly #inputs: Record<CardField, HTMLInputElement>;
  readonly #errors: Record<CardField, HTMLElement>;
  readonly #brand: HTMLElement;
  readonly #touched = new Set<CardField>();
  /** Errors the server reported for a field; shown until the field is edited. */
  readonly #serverErrors = new Map<CardField, string>();
  #submitted = false;
  #texts: CardTexts | undefined;

  readonly #form: HTMLElement;

  constructor(
    /** The form's markup is inside (a Document, or the element `mountCardForm` rendered into). */
    private readonly root: ParentNode,
    private readonly onChange: (validation: CardValidation) => void,
    private readonly now: () => Date = () => new Date(),
  ) {
    const find = (id: string): HTMLInputElement => {
      const found = root.querySelector<HTMLInputElement>(`#${id}`);
      if (!found) throw new Error(`The card form needs its markup (CARD_FORM_HTML): #${id} is missing.`);
      return found;
    };
    this.#inputs = { number: find('number'), expiry: find('expiry'), cvc: find('cvc') };
    this.#errors = { number: find('number-error'), expiry: find('expiry-error'), cvc: find('cvc-error') };
    this.#brand = find('brand');
    this.#form = find('card-form');
  }

  bind(): void {
    for (const field of FIELDS) {
      const input = this.#inputs[field];
      input.addEventListener('input', (event) => this.#onInput(field, event as InputEvent));
      input.addEventListener('blur', () => {
        if (input.value !== '') this.#touched.add(field);
        this.#render();
      });
    }
    this.#render();
  }

  values(): CardValues {
    return { number: this.#inputs.number.value, expiry: this.#inputs.expiry.value, cvc: this.#inputs.cvc.value };
  }

  validation(): CardValidation {
    const errors = validateCard(this.values(), this.now(), this.#texts);
    for (const [field, message] of this.#serverErrors) {
      if (!errors.some((error) => error.field === field)) errors.push({ field, message });
    }
    return { isValid: errors.length === 0, brand: detectBrand(digitsOf(this.#inputs.number.value))?.id ?? null, errors };
  }

  /** The card for the payments endpoint, or null while any field is invalid. */
  cardInput(): CardInput | null {
    if (!this.validation().isValid) return null;
    const expiry = parseExpiry(this.#inputs.expiry.value)!;
    return { number: digitsOf(this.#inputs.number.value), expMonth: expiry.month, expYear: expiry.year, cvc: digitsOf(this.#inputs.cvc.value) };
  }

  /** After a submit every error shows; focus goes to the first invalid field. */
  showAllErrors(): void {
    this.#submitted = true;
    this.#render();
    const first = this.validation().errors[0];
    if (first) this.#inputs[first.field].focus();
  }

  showServerError(field: CardField, message: string): void {
    this.#serverErrors.set(field, message);
    this.#touched.add(field);
    this.#render();
  }

  /** A refused payment's message on the fields its problem paths name (`card.number`, `card.expMonth`, …). */
  showServerErrorAt(paths: readonly string[], message: string): void {
    for (const path of paths) {
      const field = FIELD_OF_PATH[path];
      if (field) this.showServerError(field, message);
    }
  }

  /**
   * Speaks another language: labels, placeholders, the form's name and the errors shown, redrawn in place (what was
   * typed stays; a server's error, already in words, stays until the field is edited).
   */
  setTexts(texts: CardTexts): void {
    this.#texts = texts;
    this.#form.setAttribute('aria-label', texts.t('card.form'));
    for (const field of FIELDS) {
      const input = this.#inputs[field];
      input.placeholder = texts.t(TEXT_KEYS[field].placeholder);
      const label = this.root.querySelector<HTMLLabelElement>(`label[for="${field}"]`);
      if (label) label.textContent = texts.t(TEXT_KEYS[field].label);
    }
    this.#render();
  }

  setBusy(busy: boolean): void {
    for (const field of FIELDS) this.#inputs[field].readOnly = busy;
    this.#form.setAttribute('aria-busy', String(busy));
  }

  /** Empties the fields (after a payment, or on the host's `reset`); card data is not kept around. */
  clear(): void {
    for (const field of FIELDS) this.#inputs[field].value = '';
    this.#touched.clear();
    this.#serverErrors.clear();
    this.#submitted = false;
    this.setBusy(false);
    this.#render();
  }

  focus(): void {
    const first = this.validation().errors[0];
    this.#inputs[first?.field ?? 'number'].focus();
  }

  #onInput(field: CardField, event: InputEvent): void {
    const input = this.#inputs[field];
    this.#serverErrors.delete(field);
    const deleting = event.inputType?.startsWith('delete') ?? false;
    if (field === 'number') {
      this.#reformat(input, (text) => {
        const digits = digitsOf(text);
        return formatCardNumber(digits.slice(0, maxNumberLength(digits)));
      });
      const digits = digitsOf(input.value);
      if (!deleting && numberError(input.value, this.#texts) === null && digits.length === maxNumberLength(digits)) this.#advance('expiry');
    } else if (field === 'expiry') {
      this.#reformat(input, (text) => formatExpiry(text, deleting));
      if (!deleting && input.value.length === 5 && !this.validation().errors.some((error) => error.field === 'expiry')) this.#advance('cvc');
    } else {
      const max = brandOrDefault(digitsOf(this.#inputs.number.value)).cvcLength;
      this.#reformat(input, (text) => digitsOf(text).slice(0, max));
    }
    this.#render();
  }

  /** Rewrites the value and puts the caret back after the same number of digits. */
  #reformat(input: HTMLInputElement, format: (text: string) => string): void {
    const before = input.value;
    const caret = input.selectionStart ?? before.length;
    const digitsBeforeCaret = digitsOf(before.slice(0, caret)).length;
    const after = format(before);
    if (after === before) return;
    input.value = after;
    if (input.ownerDocument.activeElement !== input) return;
    let position = 0;
    for (let seen = 0; position < after.length && seen < digitsBeforeCaret; position += 1) {
      if (/\d/.test(after[position]!)) seen += 1;
    }
    if (caret >= before.length) position = after.length;
    input.setSelectionRange(position, position);
  }

  #advance(field: CardField): void {
    if (this.#inputs[field].value === '') this.#inputs[field].focus();
  }

  /** The brand's mark where there is one, its name for assistive technology (and in words where there is no mark). */
  #showBrand(brand: CardBrand | null): void {
    const doc = this.#brand.ownerDocument;
    const mark = brand ? CARD_MARKS[brand.id] : undefined;
    if (!brand) return this.#brand.replaceChildren();
    if (!mark) return this.#brand.replaceChildren(brand.label);
    const name = doc.createElement('span');
    name.className = 'visually-hidden';
    name.textContent = brand.label;
    const svg = createMark(doc, mark);
    // Its colour for the style sheet, which a dark theme overrides (--svc-color-mark); set through the CSSOM, which the
    // frame's Content-Security-Policy allows, unlike a style attribute.
    svg.style.setProperty('--brand', mark.color);
    this.#brand.replaceChildren(svg, name);
  }

  #render(): void {
    const validation = this.validation();
    for (const field of FIELDS) {
      const error = validation.errors.find((entry) => entry.field === field);
      const shown = error && (this.#submitted || this.#touched.has(field)) ? error.message : '';
      const input = this.#inputs[field];
      input.setAttribute('aria-invalid', String(shown !== ''));
      if (this.#errors[field].textContent !== shown) this.#errors[field].textContent = shown;
    }
    const brand = detectBrand(digitsOf(this.#inputs.number.value));
    const id = brand?.id ?? '';
    if (this.#brand.dataset['brand'] !== id || this.#brand.textContent !== (brand?.label ?? '')) this.#showBrand(brand);
    this.#brand.dataset['brand'] = id;
    this.onChange(validation);
  }
}

export interface MountCardFormOptions {
  /** Called with the validation (field names, brand and generic messages: no card data) on every change. */
  onChange: (validation: CardValidation) => void;
  /** The clock expiry dates are checked against (tests). */
  now?: () => Date;
}

/**
 * The card form in `root`, bound and ready for typing, over its markup (CARD_FORM_HTML: written by the server into a
 * server-rendered page, built into the card frame page, or put there with `renderCardForm`). Submitting the form does
 * nothing by itself: the caller pays with `cardInput()` (see card-payment.ts).
 */
export function mountCardForm(root: ParentNode, options: MountCardFormOptions): CardForm {
  const form = new CardForm(root, options.onChange, options.now);
  root.querySelector('#card-form')!.addEventListener('submit', (event) => event.preventDefault());
  form.bind();
  return form;
}
