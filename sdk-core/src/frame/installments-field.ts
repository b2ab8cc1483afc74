/**
 * The number of payments beside the card fields (docs/integrating.md#3-d-secure-and-installments-in-the-widgets): a labelled `<select>`
 * of 1 to the session's `maxInstallments`, added to the card form only when that is above 1, in the widget's language
 * (the numbers written as that language writes them). The card frame and the iframe SDK's widget page send its value
 * as the payment's `installments`.
 */
import type { Texts } from '../shared/i18n/texts';

type InstallmentsTexts = Pick<Texts<'card.installments.label'>, 't' | 'language'>;

export class InstallmentsField {
  #max = 1;
  #field: HTMLElement | null = null;
  #select: HTMLSelectElement | null = null;
  #texts: InstallmentsTexts;
  /** The numbers' format, made once per language (a render, on every change of texts or maximum, reuses it). */
  #numbers: { language: string; format: Intl.NumberFormat } | null = null;

  constructor(
    /** The card form (`#card-form`): the field goes at its end. */
    private readonly form: HTMLElement,
    texts: InstallmentsTexts,
  ) {
    this.#texts = texts;
  }

  /** The most payments offered: above 1 the field shows (with 1 chosen), else it is removed. */
  setMax(max: number): void {
    const next = Number.isSafeInteger(max) && max > 1 ? max : 1;
    if (next === this.#max) return;
    this.#max = next;
    if (next === 1) {
      this.#field?.remove();
      this.#field = this.#select = null;
      return;
    }
    this.#render(this.value() ?? 1);
  }

  /** The number chosen, or undefined when the field is not offered (the payment then carries none). */
  value(): number | undefined {
    return this.#select ? Number(this.#select.value) : undefined;
  }

  setTexts(texts: InstallmentsTexts): void {
    this.#texts = texts;
    if (this.#select) this.#render(this.value() ?? 1);
  }

  setBusy(busy: boolean): void {
    if (this.#select) this.#select.disabled = busy;
  }

  #render(chosen: number): void {
    const doc = this.form.ownerDocument;
    if (!this.#field || !this.#select) {
      this.#field = doc.createElement('div');
      this.#field.className = 'field installments';
      const label = doc.createElement('label');
      label.htmlFor = 'installments';
      this.#select = doc.createElement('select');
      this.#select.id = 'installments';
      this.#select.name = 'installments';
      this.#field.append(label, this.#select);
      this.form.append(this.#field);
    }
    this.#field.querySelector('label')!.textContent = this.#texts.t('card.installments.label');
    const { language } = this.#texts;
    if (this.#numbers?.language !== language) this.#numbers = { language, format: new Intl.NumberFormat(language) };
    const { format } = this.#numbers;
    const options = Array.from({ length: this.#max }, (_, index) => {
      const option = doc.createElement('option');
      option.value = String(index + 1);
      option.textContent = format.format(index + 1);
      return option;
    });
    this.#select.replaceChildren(...options);
    this.#select.value = String(Math.min(chosen, this.#max));
  }
}
