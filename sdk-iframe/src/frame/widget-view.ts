/**
 * The widget page's DOM (widget.html): the method radios, the card form's box, the wallet note, the success message,
 * the status and alert live regions and the retry button. It shows a state; the widget (widget-app.ts) decides it.
 */
import type { PaymentMethodName } from '@svc/protocol';
import { PHASE_STATUS_TEXT, type WidgetPhase } from '@svc/sdk-core/host';

export interface WidgetViewState {
  phase: WidgetPhase;
  methods: PaymentMethodName[];
  selected: PaymentMethodName | null;
  error: string;
  /** The session could not be loaded: the customer may try again. */
  retry: boolean;
  sandbox: boolean;
}

export class WidgetView {
  readonly #doc: Document;
  readonly #get = (id: string): HTMLElement => this.#doc.getElementById(id)!;

  constructor(doc: Document, onSelect: (method: PaymentMethodName) => void, onRetry: () => void) {
    this.#doc = doc;
    for (const radio of this.#radios()) radio.addEventListener('change', () => onSelect(radio.value as PaymentMethodName));
    this.#get('retry').addEventListener('click', onRetry);
  }

  /** The method's name as the page shows it (its radio's label). */
  label(method: PaymentMethodName): string {
    return this.#doc.querySelector(`[data-method="${method}"] span`)?.textContent ?? method;
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
    this.#setText(note, wallet ? `${this.label(wallet)} is used when you pay${state.sandbox ? ' (sandbox: approved without a real wallet)' : ''}.` : '');
    this.#get('success').hidden = phase !== 'success';
    this.#setText(this.#get('status'), PHASE_STATUS_TEXT[phase]);
    this.#setText(this.#get('alert'), state.error);
    this.#get('retry').hidden = !state.retry;
  }

  #radios(): HTMLInputElement[] {
    return [...this.#doc.querySelectorAll<HTMLInputElement>('input[name="payment-method"]')];
  }

  #setText(element: HTMLElement, text: string): void {
    if (element.textContent !== text) element.textContent = text;
  }
}
