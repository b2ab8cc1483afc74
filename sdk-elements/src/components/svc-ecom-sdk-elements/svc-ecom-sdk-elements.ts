import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { ref } from 'lit/directives/ref.js';
import type { Appearance, PaymentMethodName, SdkError, SdkMethodType, SdkPayOptions, Transaction } from '@svc/protocol';
import { SDK_METHOD_TYPES, SDK_MODES } from '@svc/protocol/light';
import {
  alertKey,
  openAuthenticationDialog,
  PHASE_STATUS_KEY,
  WidgetController,
  type AuthenticationDialogHandle,
  type WidgetHost,
  type WidgetPhase,
} from '@svc/sdk-core/host';
import { EN_WIDGET, LocaleState } from '@svc/sdk-core/i18n';
import { appearanceCss, issueWarning, refusalsWarning, type AppearanceSelector, type CheckedAppearance } from '@svc/sdk-core/shared';
import { CardFrameController, READY_TIMEOUT_MS } from '../../controllers/card-frame-controller';
import { DimensionsEvent, PayingEvent, PaymentSelectedEvent, PaymentSuccessEvent, ReadyEvent, SdkErrorEvent, ValidationStatusEvent } from '../../events/events';
import { styles } from './svc-ecom-sdk-elements.styles';
import { ELEMENTS_VERSION } from '../../version';

export type WidgetState = WidgetPhase;

/**
 * Where the appearance's selectors land in this element (the inputs, their labels and errors are the card frame's).
 * The element applies only what its card frame accepted of the appearance: the checker runs in the frame, on the
 * service's origin, not in the merchant page.
 */
const LOOK_SELECTORS: Partial<Record<AppearanceSelector, string>> = {
  '.Label': '.methods legend',
  '.Tab': '.method',
  '.Tab--selected': '.method:has(input:checked)',
  '.Button': '.retry',
  '.Error': '.error',
};

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
 *
 * The `appearance` property (sdk-elements/README.md#appearance) sets these too, and reaches the card frame; the custom
 * properties set on the element from the page win over it.
 */
export class SvcEcomSdkElements extends LitElement {
  static override styles = styles;
  static override properties = {
    clientId: { attribute: 'client-id' },
    mode: {},
    methodType: { attribute: 'method-type' },
    apiBase: { attribute: 'api-base' },
    debug: { type: Boolean },
    appearance: { attribute: false },
    paymentMethods: { attribute: false },
    locale: {},
    maxInstallments: { type: Number, attribute: 'max-installments' },
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
  /** The look: `{ theme, variables, rules }` in the shape of Stripe's Appearance API; what is not allowed is left out. */
  declare appearance: Appearance | undefined;
  /** The methods to offer, of those the session offers (`['card', 'paypal']`); unset: all of them. */
  declare paymentMethods: PaymentMethodName[] | undefined;
  /**
   * The widget's language: `auto` (default: the first supported language of `navigator.languages`) or one of `en`,
   * `he`, `ar`, `ru`, `fr`, `de`, `es`; another value is `en` with one warning. May change at any time: what was typed stays.
   */
  declare locale: string;
  /**
   * The most payments the shopper may split a card payment into (attribute `max-installments`; default 1: none). Above 1
   * the card form offers the number of payments, where the merchant's processor has installments.
   */
  declare maxInstallments: number | undefined;

  #configError: SdkError | null = null;
  #startedKey = '';
  #frameSrc = '';
  #frameSrcKey = '';
  #dimensions = { height: 0, width: 0 };
  #resizeObserver: ResizeObserver | null = null;
  /** The appearance's style sheet, after the element's own: empty (the default look) until the card frame has answered. */
  readonly #look = new CSSStyleSheet();
  #lookOf: unknown = null;
  /** The widget's texts in its language (`en` until another language's catalogue has loaded). */
  readonly #locale = new LocaleState(EN_WIDGET, () => {
    this.#frame.setLocale(this.#locale.texts.language);
    this.#authentication?.setTexts(this.#locale.texts);
    this.requestUpdate();
  });

  /** Stable, so Lit does not detach and re-attach the frame on every render. */
  readonly #frameRef = (element?: Element): void => this.#frame.attach(element as HTMLIFrameElement | undefined, this.#apiBase());

  /** The element as sdk-core's widget controller sees it: its events are this element's `svc-*` events. */
  readonly #host: WidgetHost = {
    addController: (controller) => this.addController(controller),
    requestUpdate: () => this.requestUpdate(),
    events: {
      ready: (detail) => this.dispatchEvent(new ReadyEvent(detail)),
      paymentSelected: (detail) => this.dispatchEvent(new PaymentSelectedEvent(detail)),
      paying: (detail) => this.dispatchEvent(new PayingEvent(detail)),
      validationStatus: (detail) => this.dispatchEvent(new ValidationStatusEvent(detail)),
      error: (error) => {
        if (this.debug) issueWarning(error.code, error.message);
        this.dispatchEvent(new SdkErrorEvent(error));
      },
      paymentSuccess: (detail) => this.dispatchEvent(new PaymentSuccessEvent(detail)),
    },
    blocker: () =>
      this.isConnected
        ? this.#checkConfig(this.#settings())
        : { code: 'not_configured', message: 'The widget is not on the page. Call init() (or add the element to the page) before pay().' },
    sessionReady: (session) => this.#frame.setSession(session, this.debug),
    shopperText: (key) => this.#locale.texts.t(key),
    payByCard: (_session, payment) => this.#frame.submit(payment),
  };

  readonly #widget = new WidgetController(this.#host, { name: 'svc-ecom-sdk-elements', debug: () => this.debug });
  readonly #frame = new CardFrameController(this, {
    readyTimeoutMs: () => SvcEcomSdkElements.frameTimeoutMs,
    onValidation: (validation) => {
      this.#log('card validation', { isValid: validation.isValid, brand: validation.brand, fields: validation.errors.map((error) => error.field) });
      this.#widget.fieldsChanged(validation);
    },
    onResize: () => this.#log('frame resized', { height: this.#frame.height }),
    onUnavailable: (error) => this.#widget.report(error),
    onLook: (look) => this.#applyLook(look),
    onAuthentication: (url, cancel) => this.#showAuthentication(url, cancel),
    log: (event, detail) => this.#log(event, detail),
  });
  /** The bank's 3-D Secure page over the widget, while a card payment waits for it. */
  #authentication: AuthenticationDialogHandle | null = null;

  constructor() {
    super();
    this.clientId = '';
    this.mode = '';
    this.methodType = 'manual_capture';
    this.apiBase = '';
    this.debug = false;
    this.appearance = undefined;
    this.paymentMethods = undefined;
    this.locale = 'auto';
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    if (root instanceof ShadowRoot) root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.#look];
    return root;
  }

  /** loading → ready → paying → success; `error` when the widget cannot load (see the `svc-error` event). */
  get state(): WidgetState {
    return this.#configError ? 'error' : this.#widget.phase;
  }

  /** The chosen payment method, once the session is loaded. */
  get paymentMethod(): PaymentMethodName | null {
    return this.#widget.selected;
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
    if (this.#widget.session.status === 'idle') this.#startedKey = '';
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#resizeObserver?.disconnect();
    this.#resizeObserver = null;
  }

  /**
   * Pays with the chosen method. `options`: `{ amount, currency, billingAddress? }`, amount in cents (required for
   * manual_capture). Resolves with the transaction (status 10, `paymentCommit`); rejects with an SdkErrorException
   * after dispatching `svc-error`.
   */
  pay(options?: SdkPayOptions): Promise<Transaction> {
    return this.#widget.pay(options);
  }

  /** Back to a fresh form after a payment (a new session; the card frame is emptied). */
  reset(): void {
    this.#widget.reset();
    this.#frame.reset();
  }

  /** The bank's page in a dialog over the widget until the returned function is called (the card frame decides when). */
  #showAuthentication(url: string, cancel: () => void): () => void {
    this.#authentication?.close();
    const apiBase = this.#apiBase();
    const dialog = openAuthenticationDialog(
      { parent: this.renderRoot, url, serviceOrigin: new URL(apiBase).origin, texts: this.#locale.texts, onCancel: cancel },
      `${apiBase}/sdk/elements/${ELEMENTS_VERSION}/`,
      undefined,
      (error) => this.#widget.log('authentication script not loaded', { reason: String(error) }),
    );
    this.#authentication = dialog;
    return () => {
      dialog.close();
      if (this.#authentication === dialog) this.#authentication = null;
    };
  }

  /** Loads the session again after a failure (the "Try again" button does this). */
  retry(): void {
    this.#widget.renewSession();
  }

  override focus(options?: FocusOptions): void {
    const card = this.#widget.selected === 'card';
    const target = card ? this.renderRoot.querySelector('iframe') : this.renderRoot.querySelector<HTMLInputElement>('input:checked');
    target?.focus(options);
    if (card) this.#frame.focus();
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('paymentMethods')) this.#widget.allowMethods(Array.isArray(this.paymentMethods) ? this.paymentMethods : null);
    if (this.appearance !== this.#lookOf) {
      this.#lookOf = this.appearance;
      this.#frame.setAppearance(this.appearance);
    }
    void this.#locale.request(this.locale, this.#apiBase());
    const settings = this.#settings();
    const maxInstallments = Number.isSafeInteger(this.maxInstallments) && this.maxInstallments! > 1 ? this.maxInstallments : undefined;
    const key = [settings.apiBase, settings.clientId, settings.mode, settings.methodType, maxInstallments].join('|');
    if (key === this.#startedKey || !this.isConnected) return;
    this.#startedKey = key;
    this.#configError = this.#checkConfig(settings);
    if (this.#configError) {
      this.#widget.report(this.#configError);
      return;
    }
    if (this.#frameSrcKey !== `${settings.apiBase}|${settings.clientId}`) {
      this.#frameSrcKey = `${settings.apiBase}|${settings.clientId}`;
      // The language just requested (its catalogue may still be on its way): the frame page starts in it.
      this.#frameSrc = this.#frame.frameUrl(settings.apiBase, settings.clientId, this.#locale.language);
    }
    this.#widget.startSession({
      apiBase: settings.apiBase,
      clientId: settings.clientId,
      methodType: settings.methodType as SdkMethodType,
      mode: settings.mode as 'sandbox' | 'production',
      ...(maxInstallments === undefined ? {} : { maxInstallments }),
    });
  }

  protected override updated(): void {
    this.setAttribute('state', this.state);
    const iframe = this.renderRoot.querySelector('iframe');
    if (iframe && this.#frame.height !== null) iframe.style.height = `${this.#frame.height}px`;
  }

  protected override render(): unknown {
    const state = this.state;
    const selected = this.#widget.selected;
    const methods = this.#widget.methods;
    const offersCard = !this.#configError && (this.#widget.session.status !== 'ready' ? state === 'loading' : methods.includes('card'));
    const wallet = selected !== 'card' ? selected : null;
    const { texts } = this.#locale;
    const error = this.#widget.error;
    return html`<div
      part="base"
      class="base"
      lang=${texts.language}
      dir=${texts.dir}
      aria-busy=${state === 'loading' || state === 'paying' ? 'true' : 'false'}
    >
      ${state === 'loading' ? html`<div part="spinner" class="spinner" aria-hidden="true"></div>` : nothing}
      ${
        methods.length > 1 && state !== 'success'
          ? html`<fieldset part="methods" class="methods">
            <legend part="legend">${texts.t('widget.methods')}</legend>
            ${methods.map(
              (method) =>
                html`<label part="method${method === selected ? ' method-selected' : ''}" class="method"
                  ><input
                    type="radio"
                    name="payment-method"
                    .value=${method}
                    .checked=${method === selected}
                    ?disabled=${state === 'paying'}
                    @change=${() => this.#widget.select(method)}
                  /><span part="method-label">${texts.t(`method.${method}`)}</span></label
                >`,
            )}
          </fieldset>`
          : nothing
      }
      ${
        offersCard
          ? html`<div part="card" class="card" ?hidden=${selected !== 'card' || state === 'success'}>
            <iframe
              part="frame"
              title=${texts.t('widget.frame')}
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
            ${texts.t(this.mode === 'sandbox' ? 'widget.wallet.sandbox' : 'widget.wallet', { wallet: texts.t(`method.${wallet}`) })}
          </p>`
          : nothing
      }
      ${state === 'success' ? html`<p part="success" class="success">${texts.t('widget.success')}</p>` : nothing}
      <p part="status" class="status" role="status">${PHASE_STATUS_KEY[state] ? texts.t(PHASE_STATUS_KEY[state]) : ''}</p>
      <p part="error" class="error" role="alert">${error ? texts.t(alertKey(error.code)) : ''}</p>
      ${
        state === 'error' && !this.#configError
          ? html`<button part="retry" class="retry" type="button" @click=${() => this.retry()}>${texts.t('widget.retry')}</button>`
          : nothing
      }
    </div>`;
  }

  /**
   * What the card frame accepted of the appearance (its `look` message, whose every declaration the protocol's
   * character allow-list let through): its variables and this element's rules, in place of the last look.
   */
  #applyLook(look: CheckedAppearance): void {
    this.#look.replaceSync(appearanceCss(look, ':host', LOOK_SELECTORS));
    if (look.refusals.length) {
      this.#log('appearance refused', look.refusals);
      if (this.debug) issueWarning('appearance-refused', refusalsWarning(look.refusals));
    }
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

  #measure(): void {
    const rect = this.getBoundingClientRect();
    const next = { height: Math.ceil(rect.height), width: Math.ceil(rect.width) };
    if (next.height === this.#dimensions.height && next.width === this.#dimensions.width) return;
    this.#dimensions = next;
    this.dispatchEvent(new DimensionsEvent(next));
  }

  #log(event: string, detail?: unknown): void {
    this.#widget.log(event, detail);
  }
}
