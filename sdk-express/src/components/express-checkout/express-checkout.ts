import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { ExpressPayData, ExpressReadyDetail, SdkError, WalletMethod } from '@svc/protocol';
import { ExpressPayDataWire, ExpressPaymentAnswerWire, parseWith } from '@svc/protocol/light';
import { SessionController, submitWalletPayment, type SessionState } from '@svc/sdk-core/host';
import { EN_EXPRESS, LocaleState } from '@svc/sdk-core/i18n';
import { debugLog, issueWarning } from '@svc/sdk-core/shared';
import { walletButton } from '../wallet-button/wallet-button';
import { noWalletCanPay, walletAvailability } from '../../wallets/availability';
import { showBrowserWallet, type BrowserWalletOutcome } from '../../wallets/browser-wallets';
import { LazySandboxSheet } from '../../wallets/lazy-sandbox-sheet';
import { isDeviceWallet, WALLET_NAMES, WALLETS } from '../../wallets/wallets';
import { ExpressErrorEvent, ExpressPayEvent, ExpressReadyEvent, ExpressShowEvent } from './express-events';
import { readProps, type ExpressProps, type ExpressSettings, type HandlerName, type PropsResult } from './express-props';
import { expressCheckoutStyles } from './express-checkout.styles';

const LOG_SCOPE = 'svc-ecom-sdk-express';
type Approval = Promise<BrowserWalletOutcome>;

/**
 * @summary Express 1.0.0: PayPal, Apple Pay and Google Pay buttons. Set `props` (before or after the script defines the
 * element); the buttons show at once while the SDK session starts (`onReady` waits for it), and a click opens the
 * wallet's sheet inside the click's user activation, the payment waiting for the session if it has not answered yet.
 * In sandbox the sheet is the component's own dialog; in production the device wallets are the browser's.
 *
 * @event {ExpressReadyEvent} svc-ready - Once: `{ paypal, applepay, googlepay }`, each `{ canPay, reason? }` (also `props.onReady`).
 * @event {ExpressShowEvent} svc-show - A wallet's sheet opened: `{ method }` (also `props.onShow`).
 * @event {ExpressPayEvent} svc-pay - The consumer approved and the service accepted the payment (status 10): the spec's
 *   payment data `{ code, method, timestamp, transactionNumber, billingInformation, shippingInformation }`; the merchant's
 *   backend commits it now (also `props.onPay`).
 * @event {ExpressErrorEvent} svc-error - `{ code, message }`, code from the protocol's SDK error codes (also `props.onError`).
 *
 * @csspart buttons - The column of wallet buttons.
 * @csspart paypal - The PayPal button (`.payment-btn`, with `.payment-logo` and `.payment-label` inside).
 * @csspart applepay - The Apple Pay button.
 * @csspart googlepay - The Google Pay button.
 * @csspart sheet - Sandbox: the wallet sheet (a modal dialog).
 * @csspart sheet-title - Sandbox: the sheet's heading, the wallet's name.
 * @csspart sheet-total - Sandbox: the amount to pay.
 * @csspart sheet-party - Sandbox: the billing (and shipping) details fieldset.
 * @csspart sheet-field - Sandbox: one labelled field.
 * @csspart sheet-pay - Sandbox: the Pay button.
 * @csspart sheet-cancel - Sandbox: the Cancel button.
 *
 * @cssprop [--svc-font-family=system-ui] - Font of the buttons.
 * @cssprop [--svc-font-size=16px] - Base font size.
 * @cssprop [--svc-radius=6px] - Corner radius of the buttons and the sheet.
 * @cssprop [--svc-spacing=12px] - Gap between the buttons.
 * @cssprop [--svc-color-focus=#1456d8] - Focus ring.
 *
 * `props.appearance` sets each button's theme (`data-theme`), its height (40 to 55 px) and radius; `props.wallets` which
 * buttons show. Each button shows its wallet's own mark in the colours of the wallet's button guidelines.
 */
export class SvcEcomSdkExpress extends LitElement {
  static override styles = expressCheckoutStyles;
  static override properties = { apiBase: { attribute: 'api-base' } };

  /** Used when `api-base` is not set: the origin the SDK script was loaded from (set by the script). */
  static defaultApiBase = '';

  /** The payment service's base URL; defaults to the SDK script's origin. Attribute `api-base`. */
  declare apiBase: string;

  #props: unknown = undefined;
  #read: PropsResult | null = null;
  #applied = true;
  #sessionKey = '';
  /** What the session and the browser allow, before the amount is considered; null while loading. */
  #availability: ExpressReadyDetail | null = null;
  /** While the session loads: what the merchant's wallets and the browser allow (the buttons show, a click waits for the session). */
  #early: ExpressReadyDetail | null = null;
  #readySent = false;
  #processing: WalletMethod | null = null;
  #payAbort: AbortController | null = null;
  #cssReported = '';

  readonly #session = new SessionController(this, (state) => this.#onSession(state));
  /** The buttons' and the sheet's texts (`props.locale`): `en` is bundled, another language's catalogue is loaded from the service. */
  readonly #locale = new LocaleState(EN_EXPRESS, () => this.requestUpdate());
  readonly #sheet = new LazySandboxSheet(this, this.#locale.texts, () => this.#apiBase());

  constructor() {
    super();
    this.apiBase = '';
    // `props` set on the element before the script defined it is an own property shadowing the accessor: take it over.
    if (Object.hasOwn(this, 'props')) {
      const early = (this as { props?: unknown }).props;
      delete (this as { props?: unknown }).props;
      this.props = early as ExpressProps;
    }
  }

  /** The spec's props: `clientId`, `amount` (decimal text), `currency`, `logs`, `methodType`, `mode`, `cssUrl`, `onReady`, `onShow`, `onPay`, `onError`. */
  get props(): ExpressProps {
    return this.#props as ExpressProps;
  }

  set props(value: ExpressProps) {
    this.#props = value;
    this.#read = readProps(value);
    this.#applied = false;
    this.requestUpdate();
  }

  /** Which wallet buttons can pay now, with the amount taken into account (while the session loads, a payment waits for it). */
  get availability(): ExpressReadyDetail {
    const read = this.#read;
    if (!read) return noWalletCanPay('not_configured');
    if (!read.ok) return noWalletCanPay(read.error.code);
    if (!read.settings.amount.ok) return noWalletCanPay('invalid_amount');
    return this.#availability ?? this.#early ?? noWalletCanPay('not_configured');
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.#session.state.status === 'idle' && this.#read?.ok) {
      this.#sessionKey = ''; // a removal dropped a session still loading: start again
      this.#applied = false;
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#payAbort?.abort();
    this.#payAbort = null;
    this.#processing = null;
  }

  protected override willUpdate(): void {
    if (!this.#applied) {
      this.#applied = true;
      this.#apply();
    }
  }

  #apply(): void {
    const read = this.#read;
    if (!read) return;
    // The language changes in place (an open sheet keeps what was typed); `auto` until props say otherwise.
    void this.#locale.request(read.ok ? read.settings.locale : 'auto', this.#apiBase());
    if (!read.ok) {
      this.#session.clear();
      this.#sessionKey = '';
      this.#availability = null;
      this.#report(read.error);
      this.#ready();
      return;
    }
    const { settings } = read;
    if (!settings.amount.ok) this.#report(settings.amount.error);
    const apiBase = this.#apiBase();
    const key = [apiBase, settings.clientId, settings.mode, settings.methodType, ...settings.wallets].join(' ');
    // A new client ID, mode or method type needs a new session; setting props again after a failed one retries it.
    if (key !== this.#sessionKey || this.#session.state.status === 'error') {
      this.#sessionKey = key;
      this.#availability = this.#early = null;
      this.#log('session starting', { mode: settings.mode, methodType: settings.methodType });
      void this.#session.start({ apiBase, clientId: settings.clientId, mode: settings.mode, methodType: settings.methodType });
      // The buttons show now, from the merchant's wallets and the browser; the session's answer settles them.
      void this.#allowed(settings, settings.wallets).then((early) => {
        if (key !== this.#sessionKey) return;
        this.#early = early;
        this.requestUpdate();
      });
    } else if (this.#availability) {
      this.#ready();
    }
  }

  #apiBase(): string {
    return (this.apiBase || SvcEcomSdkExpress.defaultApiBase || location.origin).replace(/\/+$/, '');
  }

  async #onSession(state: SessionState): Promise<void> {
    const read = this.#read;
    if (!read?.ok) return;
    const key = this.#sessionKey;
    if (state.status === 'error') {
      this.#availability = noWalletCanPay(state.error.code);
      this.#sheet.close(); // a click that waited for this session: its payment stops (the error is reported here, once)
      this.#report(state.error);
    } else if (state.status === 'ready') {
      const { settings } = read;
      // A wallet the merchant did not choose (props.wallets) is not offered.
      const offered = settings.wallets.filter((method) => state.session.paymentMethods.includes(method));
      const availability = await this.#allowed(settings, offered);
      if (key !== this.#sessionKey) return; // the props changed meanwhile: a newer session owns the state
      this.#availability = availability;
      this.#log('ready', availability);
    } else {
      return;
    }
    this.requestUpdate();
    this.#ready();
  }

  #allowed(settings: ExpressSettings, offered: readonly WalletMethod[]): Promise<ExpressReadyDetail> {
    const { amount } = settings;
    return walletAvailability({
      offered,
      mode: settings.mode,
      amountCents: amount.ok ? amount.cents : 100,
      currency: settings.currency,
      label: this.#locale.texts.t('express.total'),
    });
  }

  /** onReady, once in the element's life, as soon as the buttons' state is known. */
  #ready(): void {
    if (this.#readySent) return;
    if (this.#read?.ok && !this.#availability) return; // the session (and the browser) still loading
    this.#readySent = true;
    this.#emit('onReady', new ExpressReadyEvent(this.availability));
  }

  #onClick(method: WalletMethod, button: HTMLElement | null): void {
    if (this.#processing) return; // a double click, or another wallet busy: one payment at a time
    const read = this.#read;
    // Before the session answered too (the buttons show at once): the payment waits for it.
    if (!read?.ok || !read.settings.amount.ok || !this.availability[method].canPay) return;
    const { settings } = read;
    const amount = read.settings.amount;
    let approval: Approval;
    if (settings.mode === 'sandbox') {
      approval = this.#sheet
        .open(method, amount.cents, settings.currency, button)
        .then((details) => (details ? { status: 'approved', ...details, complete: async () => {} } : { status: 'cancelled' }));
    } else if (isDeviceWallet(method)) {
      // Nothing awaited before this: the browser's sheet needs the click's user activation.
      approval = showBrowserWallet({ method, amountCents: amount.cents, currency: settings.currency, label: this.#locale.texts.t('express.total') });
    } else {
      return;
    }
    this.#processing = method;
    this.requestUpdate();
    this.#log('sheet shown', { method });
    this.#emit('onShow', new ExpressShowEvent({ method }));
    void this.#pay(method, settings, amount.cents, approval);
  }

  async #pay(method: WalletMethod, settings: ExpressSettings, cents: number, approval: Approval): Promise<void> {
    const abort = new AbortController();
    this.#payAbort = abort;
    let outcome: { ok: true; data: ExpressPayData } | { ok: false; error: SdkError } | null = null;
    try {
      const approved = await approval;
      // A click before the session answered waits for it here, its sheet drawn busy meanwhile. A failed session was
      // reported when it failed (and closed the sandbox sheet): nothing more to say, the buttons go idle.
      let state = this.#session.state;
      if (state.status !== 'ready') {
        if (approved.status === 'approved') this.#sheet.setBusy(true);
        state = await this.#session.settled();
      }
      if (state.status !== 'ready') {
        if (approved.status === 'approved') await approved.complete(false);
        return;
      }
      if (approved.status === 'cancelled') {
        outcome = {
          ok: false,
          error: { code: 'payment_cancelled', message: `The customer closed the ${WALLET_NAMES[method]} sheet without paying; the buttons are ready again.` },
        };
        return;
      }
      if (approved.status === 'refused') {
        outcome = {
          ok: false,
          error: { code: 'internal_error', message: `The browser did not open ${WALLET_NAMES[method]}: ${approved.message}. A frame needs allow="payment".` },
        };
        return;
      }
      this.#log('payment sending', { method });
      const { billingInformation, shippingInformation } = approved;
      const payment = { method, amount: cents, currency: settings.currency, billingInformation, shippingInformation };
      // The request goes first (`fetch` is called before this returns); the busy sheet is drawn after it.
      const sent = submitWalletPayment(this.#apiBase(), state.session, payment, abort.signal, ExpressPaymentAnswerWire);
      this.#sheet.setBusy(true);
      const result = await sent;
      await approved.complete(result.ok);
      if (!result.ok) {
        if (result.error.code === 'session_expired') this.#restartSession();
        outcome = { ok: false, error: result.error };
        return;
      }
      const transaction = result.value;
      const data = parseWith(ExpressPayDataWire, {
        code: transaction.status,
        method,
        timestamp: transaction.date,
        transactionNumber: transaction.TransactionNumber,
        billingInformation,
        shippingInformation,
      });
      outcome = data.ok
        ? { ok: true, data: data.value }
        : {
            ok: false,
            error: { code: 'internal_error', message: `Unexpected payment data (${data.path} ${data.message}): do the SDK and service versions match?` },
          };
    } catch (error) {
      outcome = { ok: false, error: { code: 'internal_error', message: `The ${WALLET_NAMES[method]} payment failed: ${String(error)}` } };
    } finally {
      if (this.#payAbort === abort) {
        this.#payAbort = null;
        this.#processing = null;
        this.#sheet.close();
        this.requestUpdate();
      }
      // After a removal (aborted) there is nobody to tell.
      if (outcome && !abort.signal.aborted) this.#settle(method, outcome);
    }
  }

  #settle(method: WalletMethod, outcome: { ok: true; data: ExpressPayData } | { ok: false; error: SdkError }): void {
    if (!outcome.ok) {
      this.#report(outcome.error);
      return;
    }
    this.#log('paid', { method, transactionNumber: outcome.data.transactionNumber, code: outcome.data.code });
    this.#emit('onPay', new ExpressPayEvent(outcome.data));
  }

  #restartSession(): void {
    this.#session.clear();
    this.#sessionKey = '';
    this.#availability = null;
    this.#applied = false;
    this.requestUpdate();
  }

  #onCss(event: Event): void {
    const href = (event.target as HTMLLinkElement).href;
    if (event.type === 'load' || this.#cssReported === href) return;
    this.#cssReported = href;
    this.#report({ code: 'css_load_failed', message: `props.cssUrl ${href} did not load; the buttons keep their default look and still work.` });
  }

  #report(error: SdkError): void {
    this.#log('error', { code: error.code });
    this.#emit('onError', new ExpressErrorEvent(error));
  }

  /** Dispatches the event, then calls the matching props handler; a handler that throws is reported, never rethrown. */
  #emit(handler: HandlerName, event: CustomEvent): void {
    this.dispatchEvent(event);
    const read = this.#read;
    const callback = (read?.ok ? read.settings.handlers : read?.handlers)?.[handler] as ((detail: unknown) => void) | undefined;
    if (!callback) {
      if (handler === 'onError') issueWarning((event.detail as SdkError).code, `${(event.detail as SdkError).message} (no props.onError is set)`);
      return;
    }
    try {
      callback(event.detail);
    } catch (error) {
      console.error(`[${LOG_SCOPE}] props.${handler} threw`, error);
    }
  }

  /** Logs when `props.logs` is true: event names, methods, codes and transaction numbers, never billing or shipping details. */
  #log(event: string, detail?: unknown): void {
    const read = this.#read;
    if (read?.ok ? read.settings.logs : read?.logs) debugLog(LOG_SCOPE, event, detail);
  }

  /** The buttons' height and radius (props.appearance), as custom properties: set through the CSSOM, which a page's CSP allows. */
  protected override updated(): void {
    const buttons = this.renderRoot.querySelector<HTMLElement>('.buttons');
    const look = this.#read?.ok ? this.#read.settings.buttons : null;
    if (!buttons) return;
    buttons.style.setProperty('--svc-button-height', look ? `${look.height}px` : null);
    buttons.style.setProperty('--svc-button-radius', look?.radius != null ? `${look.radius}px` : null);
  }

  protected override render(): TemplateResult {
    const read = this.#read;
    const settings = read?.ok ? read.settings : null;
    const availability = this.availability;
    const cssUrl = settings?.cssUrl;
    const { texts } = this.#locale;
    return html`${cssUrl ? html`<link rel="stylesheet" href=${cssUrl} @load=${this.#onCss} @error=${this.#onCss} />` : nothing}
      <div class="buttons" part="buttons" lang=${texts.language} dir=${texts.dir}>
        ${WALLETS.map((method) =>
          walletButton({
            method,
            canPay: availability[method].canPay,
            processing: this.#processing,
            theme: settings?.buttons.theme[method] ?? 'black',
            payWith: texts.t('express.payWith'),
            onClick: (clicked) => this.#onClick(clicked, this.renderRoot.querySelector<HTMLElement>(`[part~="${clicked}"]`)),
          }),
        )}
      </div>
      <p class="visually-hidden" role="status" lang=${texts.language}>
        ${this.#processing ? texts.t('express.paying', { wallet: WALLET_NAMES[this.#processing] }) : ''}
      </p>
      ${settings?.mode === 'sandbox' ? this.#sheet.render() : nothing}`;
  }
}
