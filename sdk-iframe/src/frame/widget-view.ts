/**
 * The widget page's DOM (widget.html): the method radios, the card form's box, the wallet note, the success message,
 * the status and alert live regions and the retry button. It shows a state; the widget (widget-app.ts) decides it.
 */
import type { PaymentMethodName } from '@svc/protocol';
import { alertKey, PHASE_STATUS_KEY, type WidgetPhase } from '@svc/sdk-core/host';
import type { EN_CARD, EN_WIDGET, Texts } from '@svc/sdk-core/i18n';
import type { SdkError } from '@svc/protocol';

/** The widget page's texts: the widget's and the card fields'. */
export type WidgetTexts = Texts<keyof typeof EN_WIDGET | keyof typeof EN_CARD>;

export interface WidgetViewState {
  phase: WidgetPhase;
  methods: PaymentMethodName[];
  selected: PaymentMethodName | null;
  error: SdkError | null;
  /** The session could not be loaded: the customer may try again. */
  retry: boolean;
  sandbox: boolean;
}

export class WidgetView {
  readonly #doc: Document;
  readonly #get = (id: string): HTMLElement => this.#doc.getElementById(id)!;

  constructor(
    doc: Document,
    private texts: WidgetTexts,
    onSelect: (method: PaymentMethodName) => void,
    onRetry: () => void,
  ) {
    this.#doc = doc;
    for (const radio of this.#radios()) radio.addEventListener('change', () => onSelect(radio.value as PaymentMethodName));
    this.#get('retry').addEventListener('click', onRetry);
  }

  /** Speaks the texts' language: the page's `lang` and `dir`, and every fixed text (the next render does the rest). */
  setTexts(texts: WidgetTexts): void {
    this.texts = texts;
    const root = this.#doc.documentElement;
    root.lang = texts.language;
    root.dir = texts.dir;
    this.#doc.title = texts.t('widget.iframe');
    this.#setText(this.#doc.querySelector('h1')!, texts.t('widget.heading'));
    this.#setText(this.#doc.querySelector('#methods legend')!, texts.t('widget.methods'));
    for (const radio of this.#radios()) this.#setText(radio.nextElementSibling as HTMLElement, texts.t(`method.${radio.value as PaymentMethodName}`));
    this.#setText(this.#get('success'), texts.t('widget.success'));
    this.#setText(this.#get('retry'), texts.t('widget.retry'));
  }

  render(state: WidgetViewState): void {
    const { phase, methods, selected } = state;
    this.#get('widget').setAttribute('aria-busy', String(phase === 'loading' || phase === 'paying'));
    this.#get('spinner').hidden = phase !== 'loading';
    this.#get('methods').hidden = methods.length < 2 || phase === 'success';
    for (const radio of this.#radios()) {
      const method = radio.value as PaymentMethodName;
      radio.closest('label')!.hidden = !methods.includes(method);
      radio.checked = method === selected;
      radio.disabled = phase === 'paying';
    }
    const showing = phase !== 'success' && phase !== 'loading' && methods.length > 0;
    this.#get('card').hidden = !(showing && selected === 'card');
    const note = this.#get('wallet-note');
    const wallet = showing && phase !== 'error' && selected && selected !== 'card' ? selected : null;
    note.hidden = wallet === null;
    const { texts } = this;
    this.#setText(note, wallet ? texts.t(state.sandbox ? 'widget.wallet.sandbox' : 'widget.wallet', { wallet: texts.t(`method.${wallet}`) }) : '');
    this.#get('success').hidden = phase !== 'success';
    const status = PHASE_STATUS_KEY[phase];
    this.#setText(this.#get('status'), status ? texts.t(status) : '');
    const error = state.error;
    this.#setText(this.#get('alert'), error ? texts.t(alertKey(error.code)) : '');
    this.#get('retry').hidden = !state.retry;
  }

  #radios(): HTMLInputElement[] {
    return [...this.#doc.querySelectorAll<HTMLInputElement>('input[name="payment-method"]')];
  }

  #setText(element: HTMLElement, text: string): void {
    if (element.textContent !== text) element.textContent = text;
  }
}
