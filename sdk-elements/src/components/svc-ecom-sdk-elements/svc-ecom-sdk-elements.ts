import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { ref } from 'lit/directives/ref.js';
import type { PaymentMethodName, SdkError, SdkMethodType, SdkPayOptions, SdkSession, Transaction, WalletMethod } from '@svc/protocol';
import { PAYMENT_METHODS, SDK_METHOD_TYPES, SDK_MODES } from '@svc/protocol/light';
import { payOptionsFrom, payWithWallet, SessionController, type PaymentFields, type SessionState } from '@svc/sdk-core/host';
import { debugLog, issueWarning, SdkErrorException } from '@svc/sdk-core/shared';
import { CardFrameController, READY_TIMEOUT_MS, type CardOutcome } from '../../controllers/card-frame-controller';
import { DimensionsEvent, PayingEvent, PaymentSelectedEvent, PaymentSuccessEvent, ReadyEvent, SdkErrorEvent, ValidationStatusEvent } from '../../events/events';
import { styles } from './svc-ecom-sdk-elements.styles';

export type WidgetState = 'loading' | 'ready' | 'paying' | 'success' | 'error';

const STATUS_TEXT: Record<WidgetState, string> = {
  loading: 'Loading payment methods…',
  ready: '',
  paying: 'Processing the payment…',
  success: 'Payment accepted. The merchant will confirm your order.',
  error: '',
};

const LABELS: Record<PaymentMethodName, string> = { card: 'Card', paypal: 'PayPal', applepay: 'Apple Pay', googlepay: 'Google Pay' };

interface WidgetSettings {
  apiBase: string;
  clientId: string;
  mode: string;
  methodType: string;
}

/** An attribute-backed property as text: a removed attribute is null, a page may set undefined or another type. */
const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'symbol' ? '' : String(value ?? ''));

/**
 * @summary Elements 1.1.1: the payment widget. The customer chooses card or a wallet; card details are typed into a
 * secure frame served by the payment service, so they never touch this page.
 *
 * @event {ReadyEvent} svc-ready - The session is loaded; `detail.paymentMethods` are shown.
 * @event {PaymentSelectedEvent} svc-payment-selected - `detail.paymentMethod` was chosen (also for the initial choice).
 * @event {PayingEvent} svc-paying - `detail.isPaying` is true when a payment starts, false when it ends.
 * @event {ValidationStatusEvent} svc-validation-status - `detail.isValid` and `detail.errors` (`{ field, message }[]`, no card data).
 * @event {SdkErrorEvent} svc-error - `detail.code` (SDK_ERROR_CODES) and `detail.message` (what to do).
 * @event {DimensionsEvent} svc-dimensions - `detail.height` and `detail.width` in px, on every size change.
 * @event {PaymentSuccessEvent} svc-payment-success - `detail.transaction`, status 10 (AwaitingCommit).
 *
 * @csspart base - The wrapper of everything; carries `aria-busy`.
 * @csspart spinner - The loading indicator.
 * @csspart methods - The payment method radio group (a fieldset).
 * @csspart legend - The radio group's legend.
 * @csspart method - One payment method choice (a label around its radio).
 * @csspart method-selected - Added to the chosen method's label.
 * @csspart method-label - The text of a payment method choice.
 * @csspart card - The box around the card frame.
 * @csspart frame - The secure card iframe (its content is styled by the service).
 * @csspart wallet-note - The note shown when a wallet is chosen.
 * @csspart success - The success message.
 * @csspart status - The polite live region with the current status.
 * @csspart error - The alert live region with the last error.
 * @csspart retry - The "Try again" button shown when the session could not be loaded.
 *
 * @cssprop [--svc-font-family=system-ui] - Font of the widget (the card frame uses the system font).
 * @cssprop [--svc-font-size=16px] - Base font size.
 * @cssprop [--svc-color-text=#1a1a1a] - Text color.
 * @cssprop [--svc-color-muted=#4a4a4a] - Status text color.
 * @cssprop [--svc-color-background=transparent] - Background of the base part.
 * @cssprop [--svc-color-border=#8a8a8a] - Borders of the method choices.
 * @cssprop [--svc-color-accent=#1456d8] - Chosen method, focus ring, retry button.
 * @cssprop [--svc-color-error=#b3261e] - Error text.
 * @cssprop [--svc-color-success=#1b6e35] - Success text.
 * @cssprop [--svc-radius=6px] - Corner radius.
 * @cssprop [--svc-spacing=12px] - Gap between the parts.
 */
export class SvcEcomSdkElements extends LitElement {
  static override styles = styles;
  static override properties = {
    clientId: { attribute: 'client-id' },
    mode: {},
    methodType: { attribute: 'method-type' },
    apiBase: { attribute: 'api-base' },
    debug: { type: Boolean },
  };

  /** Used when `api-base` is not set: the origin the SDK script was loaded from (set by the script). */
  static defaultApiBase = '';
  /** How long the card frame has to complete its handshake once loaded before `frame_unavailable`. */
  static frameTimeoutMs = READY_TIMEOUT_MS;

  /** The client ID (`ck_…`). Attribute `client-id`. */
  declare clientId: string;
  /** `sandbox` or `production`. */
  declare mode: string;
  /** `manual_capture` (default), `authorize` or `tokenize`. Attribute `method-type`. */
  declare methodType: string;
  /** The payment service's base URL; defaults to the SDK script's origin. Attribute `api-base`. */
  declare apiBase: string;
  /** Logs the widget's events to the console (never card data). */
  declare debug: boolean;

  #selected: PaymentMethodName | null = null;
  #paying = false;
  #transaction: Transaction | null = null;
  #error: SdkError | null = null;
  #configError: SdkError | null = null;
  #startedKey = '';
  #frameSrc = '';
  #frameSrcKey = '';
  #dimensions = { height: 0, width: 0 };
  #resizeObserver: ResizeObserver | null = null;
  #payAbort: AbortController | null = null;

  /** Stable, so Lit does not detach and re-attach the frame on every render. */
  readonly #frameRef = (element?: Element): void => this.#frame.attach(element as HTMLIFrameElement | undefined, this.#apiBase());

  readonly #session = new SessionController(this, (state) => this.#onSession(state));
  readonly #frame = new CardFrameController(this, {
    readyTimeoutMs: () => SvcEcomSdkElements.frameTimeoutMs,
    onValidation: (validation) => {
      this.#log('card validation', { isValid: validation.isValid, brand: validation.brand, fields: validation.errors.map((error) => error.field) });
      if (this.#selected === 'card') this.dispatchEvent(new ValidationStatusEvent({ isValid: validation.isValid, errors: validation.errors }));
    },
    onResize: () => this.#log('frame resized', { height: this.#frame.height }),
    onUnavailable: (error) => this.#reportError(error),
    log: (event, detail) => this.#log(event, detail),
  });

  constructor() {
    super();
    this.clientId = '';
    this.mode = '';
    this.methodType = 'manual_capture';
    this.apiBase = '';
    this.debug = false;
  }

  /** loading → ready → paying → success; `error` when the widget cannot load (see the `svc-error` event). */
  get state(): WidgetState {
    if (this.#configError) return 'error';
    if (this.#paying) return 'paying';
    if (this.#transaction) return 'success';
    const { status } = this.#session.state;
    return status === 'ready' ? 'ready' : status === 'error' ? 'error' : 'loading';
  }

  /** The chosen payment method, once the session is loaded. */
  get paymentMethod(): PaymentMethodName | null {
    return this.#selected;
  }

  /** The element's last reported size, px. */
  get dimensions(): { height: number; width: number } {
    return { ...this.#dimensions };
  }

  /** This widget's id in the postMessage protocol (also in the frame URL's hash). */
  get instanceId(): string {
    return this.#frame.instanceId;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#resizeObserver = new ResizeObserver(() => this.#measure());
    this.#resizeObserver.observe(this);
    if (this.#session.state.status === 'idle') this.#startedKey = '';
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#resizeObserver?.disconnect();
    this.#resizeObserver = null;
    this.#payAbort?.abort();
  }

  /**
   * Pays with the chosen method. `options`: `{ amount, currency, billingAddress? }`, amount in cents (required for
   * manual_capture). Resolves with the transaction (status 10, `paymentCommit`); rejects with an SdkErrorException
   * after dispatching `svc-error`.
   */
  async pay(options?: SdkPayOptions): Promise<Transaction> {
    if (this.#paying)
      this.#fail({
        code: 'payment_in_progress',
        message: 'A payment is already in progress. Wait for its result (the pay callback or an error) before paying again.',
      });
    if (this.#transaction) {
      this.#fail({
        code: 'payment_in_progress',
        message: `This widget already completed a payment (transaction ${this.#transaction.TransactionNumber}); commit it from your backend. For another payment call reset() or init() again.`,
      });
    }
    const payment = payOptionsFrom(options, this.#settings().methodType);
    if (!payment.ok) this.#fail(payment.error);
    this.#setPaying(true);
    try {
      await this.updateComplete; // the configuration is checked and the session started in an update
      if (this.#configError) this.#fail(this.#configError);
      const state = await this.#session.settled();
      if (state.status === 'error') this.#fail(state.error);
      if (state.status !== 'ready')
        this.#fail({ code: 'not_configured', message: 'The widget is not on the page. Call init() (or add the element to the page) before pay().' });
      const method = this.#selected ?? 'card';
      this.#log('pay', { method, amount: payment.value.amount, currency: payment.value.currency });
      const outcome = method === 'card' ? await this.#frame.submit(payment.value) : await this.#payWithWallet(state.session, method, payment.value);
      if (!outcome.ok) {
        if (outcome.error.code === 'session_expired') this.#renewSession();
        this.#fail(outcome.error);
      }
      this.#transaction = outcome.transaction;
      this.#error = null;
      this.#log('payment accepted', { transactionNumber: outcome.transaction.TransactionNumber, status: outcome.transaction.status });
      this.dispatchEvent(new PaymentSuccessEvent({ transaction: outcome.transaction }));
      return outcome.transaction;
    } finally {
      this.#setPaying(false);
    }
  }

  /** Back to a fresh form after a payment (a new session; the card frame is emptied). */
  reset(): void {
    this.#transaction = null;
    this.#error = null;
    this.#frame.reset();
    this.#renewSession();
  }

  /** Loads the session again after a failure (the "Try again" button does this). */
  retry(): void {
    this.#error = null;
    this.#renewSession();
  }

  override focus(options?: FocusOptions): void {
    const target = this.#selected === 'card' ? this.renderRoot.querySelector('iframe') : this.renderRoot.querySelector<HTMLInputElement>('input:checked');
    target?.focus(options);
    if (this.#selected === 'card') this.#frame.focus();
  }

  protected override willUpdate(_changed: PropertyValues): void {
    const settings = this.#settings();
    const key = [settings.apiBase, settings.clientId, settings.mode, settings.methodType].join('|');
    if (key === this.#startedKey || !this.isConnected) return;
    this.#startedKey = key;
    this.#configError = this.#checkConfig(settings);
    if (this.#configError) {
      this.#reportError(this.#configError);
      return;
    }
    if (this.#frameSrcKey !== `${settings.apiBase}|${settings.clientId}`) {
      this.#frameSrcKey = `${settings.apiBase}|${settings.clientId}`;
      this.#frameSrc = this.#frame.frameUrl(settings.apiBase, settings.clientId);
    }
    void this.#startSession();
  }

  protected override updated(): void {
    this.setAttribute('state', this.state);
    const iframe = this.renderRoot.querySelector('iframe');
    if (iframe && this.#frame.height !== null) iframe.style.height = `${this.#frame.height}px`;
  }

  protected override render(): unknown {
    const state = this.state;
    const session = this.#session.state.status === 'ready' ? this.#session.state.session : null;
    const methods = session ? this.#methods(session) : [];
    const offersCard = !this.#configError && (session === null ? state === 'loading' : methods.includes('card'));
    const wallet = this.#selected !== 'card' ? this.#selected : null;
    return html`<div part="base" class="base" aria-busy=${state === 'loading' || state === 'paying' ? 'true' : 'false'}>
      ${state === 'loading' ? html`<div part="spinner" class="spinner" aria-hidden="true"></div>` : nothing}
      ${
        methods.length > 1 && state !== 'success'
          ? html`<fieldset part="methods" class="methods">
            <legend part="legend">Payment method</legend>
            ${methods.map(
              (method) =>
                html`<label part="method${method === this.#selected ? ' method-selected' : ''}" class="method"
                  ><input
                    type="radio"
                    name="payment-method"
                    .value=${method}
                    .checked=${method === this.#selected}
                    ?disabled=${state === 'paying'}
                    @change=${() => this.#select(method)}
                  /><span part="method-label">${LABELS[method]}</span></label
                >`,
            )}
          </fieldset>`
          : nothing
      }
      ${
        offersCard
          ? html`<div part="card" class="card" ?hidden=${this.#selected !== 'card' || state === 'success'}>
            <iframe
              part="frame"
              title="Secure card payment form"
              data-ready=${this.#frame.frameReady ? 'true' : 'false'}
              src=${this.#frameSrc}
              ${ref(this.#frameRef)}
              @load=${() => this.#frame.frameLoaded()}
            ></iframe>
          </div>`
          : nothing
      }
      ${
        wallet && state !== 'success' && state !== 'error'
          ? html`<p part="wallet-note" class="wallet-note">
            ${LABELS[wallet]} is used when you pay${this.mode === 'sandbox' ? ' (sandbox: approved without a real wallet)' : ''}.
          </p>`
          : nothing
      }
      ${state === 'success' ? html`<p part="success" class="success">Payment accepted.</p>` : nothing}
      <p part="status" class="status" role="status">${STATUS_TEXT[state]}</p>
      <p part="error" class="error" role="alert">${this.#error?.message ?? ''}</p>
      ${
        state === 'error' && !this.#configError
          ? html`<button part="retry" class="retry" type="button" @click=${() => this.retry()}>Try again</button>`
          : nothing
      }
    </div>`;
  }

  #apiBase(): string {
    return (text(this.apiBase) || SvcEcomSdkElements.defaultApiBase || location.origin).replace(/\/+$/, '');
  }

  /**
   * The attribute-backed settings as strings: a removed attribute (or a property set to null/undefined, or to
   * another type) must end in config_invalid, never in a TypeError thrown inside Lit's update. A removed
   * `method-type` means the default, as when it was never set.
   */
  #settings(): WidgetSettings {
    return { apiBase: this.#apiBase(), clientId: text(this.clientId), mode: text(this.mode), methodType: text(this.methodType) || 'manual_capture' };
  }

  #checkConfig({ apiBase, clientId, mode, methodType }: WidgetSettings): SdkError | null {
    const problems: string[] = [];
    if (!clientId.startsWith('ck_')) problems.push('client-id must be your client ID (ck_…)');
    if (!(SDK_MODES as readonly string[]).includes(mode)) problems.push("mode must be 'sandbox' or 'production'");
    if (!(SDK_METHOD_TYPES as readonly string[]).includes(methodType)) problems.push(`method-type must be one of ${SDK_METHOD_TYPES.join(', ')}`);
    if (!/^https?:\/\/[^/?#]+/.test(apiBase)) problems.push('api-base must be the http(s) URL of the payment service');
    return problems.length ? { code: 'config_invalid', message: `<svc-ecom-sdk-elements>: ${problems.join('; ')}.` } : null;
  }

  #startSession(): Promise<SessionState> {
    const { apiBase, clientId, mode, methodType } = this.#settings();
    return this.#session.start({ apiBase, clientId, methodType: methodType as SdkMethodType, mode: mode as 'sandbox' | 'production' });
  }

  #renewSession(): void {
    this.#session.clear();
    this.#startedKey = '';
    this.requestUpdate();
  }

  #methods(session: SdkSession): PaymentMethodName[] {
    return PAYMENT_METHODS.filter((method) => session.paymentMethods.includes(method));
  }

  #onSession(state: SessionState): void {
    if (state.status === 'error') {
      this.#log('session failed', state.error);
      this.#reportError(state.error);
      return;
    }
    if (state.status !== 'ready') return;
    const methods = this.#methods(state.session);
    this.#log('session ready', { sessionId: state.session.sessionId, paymentMethods: methods });
    this.#frame.setSession(state.session, this.debug);
    this.dispatchEvent(new ReadyEvent({ paymentMethods: methods }));
    if (methods.length === 0) {
      this.#reportError({ code: 'config_invalid', message: 'No payment method is enabled for this client ID. Enable card or a wallet for it.' });
    } else if (!this.#selected || !methods.includes(this.#selected)) {
      this.#select(methods[0]!);
    }
  }

  #select(method: PaymentMethodName): void {
    this.#selected = method;
    this.#error = null;
    this.requestUpdate();
    this.#log('payment method selected', { paymentMethod: method });
    this.dispatchEvent(new PaymentSelectedEvent({ paymentMethod: method }));
    const validation = method === 'card' ? this.#frame.validation : { isValid: true, errors: [] };
    this.dispatchEvent(new ValidationStatusEvent({ isValid: validation.isValid, errors: validation.errors }));
  }

  async #payWithWallet(session: SdkSession, method: WalletMethod, payment: PaymentFields): Promise<CardOutcome> {
    this.#payAbort = new AbortController();
    try {
      const result = await payWithWallet(this.#apiBase(), session, { method, ...payment }, this.#payAbort.signal);
      return result.ok ? { ok: true, transaction: result.value } : result;
    } catch (error) {
      if (this.#payAbort?.signal.aborted)
        return { ok: false, error: { code: 'internal_error', message: 'The widget was removed from the page during the payment.' } };
      // Not an abort: a defect of ours, reported as one rather than as a removal.
      console.error('[svc-ecom-sdk-elements] wallet payment failed', error);
      return { ok: false, error: { code: 'internal_error', message: 'The wallet payment failed unexpectedly; try again, or pay by card.' } };
    } finally {
      this.#payAbort = null;
    }
  }

  #setPaying(paying: boolean): void {
    this.#paying = paying;
    if (paying) this.#error = null;
    this.requestUpdate();
    this.dispatchEvent(new PayingEvent({ isPaying: paying }));
  }

  #fail(error: SdkError): never {
    throw this.#reportError(error);
  }

  #reportError(error: SdkError): SdkErrorException {
    this.#error = error;
    this.requestUpdate();
    if (this.debug) issueWarning(error.code, error.message);
    this.#log('error', error);
    this.dispatchEvent(new SdkErrorEvent(error));
    return new SdkErrorException(error);
  }

  #measure(): void {
    const rect = this.getBoundingClientRect();
    const next = { height: Math.ceil(rect.height), width: Math.ceil(rect.width) };
    if (next.height === this.#dimensions.height && next.width === this.#dimensions.width) return;
    this.#dimensions = next;
    this.dispatchEvent(new DimensionsEvent(next));
  }

  #log(event: string, detail?: unknown): void {
    if (this.debug) debugLog('svc-ecom-sdk-elements', event, detail);
  }
}
