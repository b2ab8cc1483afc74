/**
 * Sandbox: the wallet sheet, drawn inside the Express element (no third-party script). A modal `dialog` named after
 * the wallet shows the amount and collects billing and shipping details, prefilled with test data; `Pay` resolves
 * `open()` with the details, `Cancel` or Escape with null. Focus stays inside while it is open and goes back to the
 * button that opened it afterwards. Its texts are the element's language (`texts`), right to left for `he` and `ar`, and the
 * amount is written by Intl in that language.
 */
import { html, nothing, type LitElement, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { PartyInformation, WalletMethod } from '@svc/protocol';
import { formatAmount, type EN_EXPRESS, type Texts } from '@svc/sdk-core/i18n';
import { fullNameOf, SANDBOX_PARTY } from './party';
import { WALLET_NAMES } from './wallets';

export interface SheetDetails {
  billingInformation: PartyInformation;
  shippingInformation: PartyInformation;
}

interface OpenSheet {
  method: WalletMethod;
  cents: number;
  currency: string;
  resolve: (details: SheetDetails | null) => void;
  returnFocus: HTMLElement | null;
}

export type ExpressTexts = Texts<keyof typeof EN_EXPRESS>;
type FieldName = Exclude<keyof PartyInformation, 'fullName'>;
type SheetKey = Extract<keyof typeof EN_EXPRESS, `sheet.${string}`>;
/** `ltr`: typed left to right in every language (an e-mail address, a postal code, a country code). */
const FIELDS: { name: FieldName; label: SheetKey; autocomplete: string; type?: string; optional?: boolean; ltr?: true }[] = [
  { name: 'firstName', label: 'sheet.firstName', autocomplete: 'given-name' },
  { name: 'lastName', label: 'sheet.lastName', autocomplete: 'family-name' },
  { name: 'addressLine1', label: 'sheet.address1', autocomplete: 'address-line1' },
  { name: 'addressLine2', label: 'sheet.address2', autocomplete: 'address-line2', optional: true },
  { name: 'city', label: 'sheet.city', autocomplete: 'address-level2' },
  { name: 'state', label: 'sheet.state', autocomplete: 'address-level1' },
  { name: 'postalCode', label: 'sheet.postalCode', autocomplete: 'postal-code', ltr: true },
  { name: 'country', label: 'sheet.country', autocomplete: 'country', ltr: true },
  { name: 'email', label: 'sheet.email', autocomplete: 'email', type: 'email', ltr: true },
];

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]):not([type=hidden])';

export class SandboxSheet implements ReactiveController {
  #open: OpenSheet | null = null;
  #busy = false;
  #sameAddress = true;

  constructor(
    private readonly host: ReactiveControllerHost & LitElement,
    private readonly texts: ExpressTexts,
  ) {
    host.addController(this);
  }

  /** The sheet's dialog (rendered in sandbox mode only). */
  get dialog(): HTMLDialogElement | null {
    return this.host.renderRoot.querySelector('dialog');
  }

  /** Opens the sheet for `method`, showing the amount (`cents` of `currency`). Resolves with the details, or null when cancelled. */
  async open(method: WalletMethod, cents: number, currency: string, returnFocus: HTMLElement | null): Promise<SheetDetails | null> {
    this.#open?.resolve(null);
    const details = new Promise<SheetDetails | null>((resolve) => {
      this.#open = { method, cents, currency, resolve, returnFocus };
    });
    this.#busy = false;
    this.#sameAddress = true;
    this.host.requestUpdate();
    await this.host.updateComplete;
    const dialog = this.dialog;
    if (dialog && !dialog.open) {
      dialog.querySelector('form')?.reset();
      dialog.showModal();
      dialog.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    }
    return details;
  }

  /** The payment is being sent: Pay shows it, nothing in the sheet can be changed. */
  setBusy(busy: boolean): void {
    this.#busy = busy;
    this.host.requestUpdate();
  }

  close(): void {
    const open = this.#open;
    this.#open = null;
    this.#busy = false;
    this.dialog?.close();
    open?.resolve(null);
    open?.returnFocus?.focus();
    this.host.requestUpdate();
  }

  hostDisconnected(): void {
    this.close();
  }

  #cancel(): void {
    if (this.#busy) return;
    this.close();
  }

  #submit(event: Event): void {
    event.preventDefault();
    const open = this.#open;
    const form = this.dialog?.querySelector('form');
    if (!open || this.#busy || !form) return;
    if (!form.reportValidity()) return;
    const data = new FormData(form);
    const party = (prefix: string): PartyInformation => {
      const value = (name: FieldName) => String(data.get(`${prefix}-${name}`) ?? '').trim();
      const entry = Object.fromEntries(FIELDS.map((field) => [field.name, value(field.name)])) as Omit<PartyInformation, 'fullName'>;
      return { fullName: fullNameOf(entry.firstName, entry.lastName), ...entry };
    };
    const billingInformation = party('billing');
    // No second Pay from now on; the element draws the sheet busy once the payment's request is out (setBusy).
    this.#busy = true;
    open.resolve({ billingInformation, shippingInformation: this.#sameAddress ? { ...billingInformation } : party('shipping') });
  }

  #onKeydown(event: KeyboardEvent): void {
    if (event.key !== 'Tab') return;
    const focusable = [...(this.dialog?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter((element) => element.offsetParent !== null);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const active = this.host.shadowRoot?.activeElement;
    if (event.shiftKey && (active === first || !active)) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first?.focus();
    }
  }

  #fieldset(prefix: 'billing' | 'shipping', legend: SheetKey): TemplateResult {
    return html`<fieldset class="sheet-party" part="sheet-party" ?disabled=${this.#busy}>
      <legend>${this.texts.t(legend)}</legend>
      ${FIELDS.map(
        (field) => html`<label class="sheet-field" part="sheet-field">
          <span>${this.texts.t(field.label)}</span>
          <input
            name=${`${prefix}-${field.name}`}
            type=${field.type ?? 'text'}
            dir=${field.ltr ? 'ltr' : nothing}
            autocomplete=${`${prefix} ${field.autocomplete}`}
            .defaultValue=${SANDBOX_PARTY[field.name]}
            ?required=${!field.optional}
            maxlength=${field.name === 'postalCode' ? 20 : 100}
          />
        </label>`,
      )}
    </fieldset>`;
  }

  render(): TemplateResult {
    const open = this.#open;
    const { texts } = this;
    const name = open ? WALLET_NAMES[open.method] : '';
    const total = open ? formatAmount(open.cents, open.currency, texts.language) : '';
    return html`<dialog
      class="sheet"
      part="sheet"
      lang=${texts.language}
      dir=${texts.dir}
      aria-labelledby="sheet-title"
      aria-describedby="sheet-total"
      @cancel=${(event: Event) => {
        event.preventDefault();
        this.#cancel();
      }}
      @keydown=${(event: KeyboardEvent) => this.#onKeydown(event)}
    >
      <form @submit=${(event: Event) => this.#submit(event)} novalidate>
        <h2 id="sheet-title" class="sheet-title" part="sheet-title">${name}</h2>
        <p id="sheet-total" class="sheet-total" part="sheet-total">
          ${texts.t('sheet.total', { amount: total })} <span class="sheet-note">${texts.t('sheet.sandbox')}</span>
        </p>
        ${this.#fieldset('billing', 'sheet.billing')}
        <label class="sheet-same">
          <input
            type="checkbox"
            ?checked=${this.#sameAddress}
            .checked=${this.#sameAddress}
            ?disabled=${this.#busy}
            @change=${(event: Event) => {
              this.#sameAddress = (event.target as HTMLInputElement).checked;
              this.host.requestUpdate();
            }}
          />
          ${texts.t('sheet.sameAddress')}
        </label>
        ${this.#sameAddress ? nothing : this.#fieldset('shipping', 'sheet.shipping')}
        <div class="sheet-actions">
          <button type="button" class="sheet-cancel" part="sheet-cancel" ?disabled=${this.#busy} @click=${() => this.#cancel()}>
            ${texts.t('sheet.cancel')}
          </button>
          <button type="submit" class="sheet-pay" part="sheet-pay" aria-busy=${this.#busy ? 'true' : nothing} ?disabled=${this.#busy}>
            ${texts.t('sheet.pay')}
          </button>
        </div>
      </form>
    </dialog>`;
  }
}
