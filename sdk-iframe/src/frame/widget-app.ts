/**
 * The widget page: served by the service at {apiBase}/sdk/iframe/1.0.9/widget.html?clientId=…&origin=…#instance=…,
 * framed only by `origin` (the server checked it against the client ID). It runs sdk-core's SDK engine (the option
 * checks, the messages, the payments, the debug log's lines) for the facade in the merchant page, and the whole payment
 * widget of the iframe SDK under it: the method choice, sdk-core's card form, the wallets and the messages. It starts
 * its own session and pays itself; the merchant page gets only the engine's events, sizes and the transaction
 * (protocol/src/iframe-messages.ts).
 */
import type { SdkError, SdkMethodType, SdkPayOptions, Transaction } from '@svc/protocol';
import { SDK_VERSIONS, type ProblemInfo } from '@svc/protocol/light';
import {
  applyCardFormStylesLazily,
  instanceIdFrom,
  loadAppearanceCheck,
  mountCardForm,
  LazyInstallmentsField,
  observeSize,
  parentOriginFrom,
  submitCardForm,
  type AuthenticationPrompt,
  type CardForm,
  type CardSubmitPayment,
  type FrameSession,
} from '@svc/sdk-core/frame';
import {
  openAuthenticationDialog,
  SdkEngine,
  type AuthenticationDialogHandle,
  WidgetController,
  type WidgetAdapter,
  type WidgetConfig,
  type WidgetEvents,
  type WidgetHandle,
} from '@svc/sdk-core/host';
import { EN_CARD, EN_WIDGET, LocaleState } from '@svc/sdk-core/i18n';
import { SdkErrorException, sessionError } from '@svc/sdk-core/shared';
import { widgetEnd } from './widget-channel';
import { applyWidgetStyles, WIDGET_SELECTORS } from './widget-styles';
import { WidgetView } from './widget-view';

export function startWidget(win: Window): void {
  const doc = win.document;
  applyWidgetStyles(doc);
  // The appearance checker is a lazy script, loaded when the merchant gives an appearance (most give none).
  const applyAppearance = applyCardFormStylesLazily(doc, WIDGET_SELECTORS);
  const parentOrigin = parentOriginFrom(win.location.search);
  const instanceId = instanceIdFrom(win.location.hash);
  if (!parentOrigin || !instanceId || win.parent === win) {
    console.error('[svc-iframe-widget] widget-not-embedded: this page is shown only by the iframe SDK (it needs ?origin=… and #instance=…).');
    for (const input of doc.querySelectorAll('input, button')) (input as HTMLInputElement).disabled = true;
    return;
  }
  const clientId = new URLSearchParams(win.location.search).get('clientId') ?? '';
  const refusal = doc.querySelector('meta[name="svc-widget-refusal"]')?.getAttribute('content');
  // Served instead of the form: every widget reports why, as Elements reports the same refusal of its session.
  const refused = refusal ? refusedWidget(sessionError(refusalProblem(refusal), clientId, parentOrigin)) : null;
  const adapter: WidgetAdapter = {
    mount: (_container, config, events) => refused?.(events) ?? new Widget(win, config, events, parentOrigin, applyAppearance),
  };
  const channel = widgetEnd(win, {
    peerOrigin: parentOrigin,
    peerWindow: () => win.parent,
    instanceId,
    onMessage: (call) => {
      if (call.type !== 'init') engine.handle(call);
      else if (!engine.init(doc.body, call.container)) channel.send({ type: 'unmounted' });
    },
  });
  const engine = new SdkEngine({
    apiBase: win.location.origin,
    adapter,
    emit: (event) => channel.send(event),
    checkLook: (appearance) => loadAppearanceCheck(doc).then((check) => check.checkAppearance(appearance)),
  });
  channel.open();
  channel.send({ type: 'ready' });
  channel.send({ type: 'warning', code: 'sdk-deprecated', message: deprecation(win.location.href) });
  reportTitle(doc, (title) => channel.send({ type: 'title', title }));
  if (!refused) observeSize(doc, (height, width) => channel.send({ type: 'size', height, width }));
}

/**
 * The page's title now and whenever it changes (the widget's language arrived or changed: `widget.iframe`), for the
 * loader to name the iframe with: the merchant page cannot read this page, and the loader carries no catalogue.
 */
function reportTitle(doc: Document, report: (title: string) => void): void {
  let said = '';
  const say = (): void => {
    const title = doc.title.slice(0, 200);
    if (title && title !== said) report((said = title));
  };
  say();
  const element = doc.querySelector('title');
  if (element) new MutationObserver(say).observe(element, { childList: true, characterData: true, subtree: true });
}

/**
 * The iframe SDK's deprecation, which the merchant page prints once (`sdk-deprecated`). The widget page says it when it
 * starts, not the loader when it loads: the loader (held to 5 KB) carries only what is needed before the iframe loads.
 */
function deprecation(pageUrl: string): string {
  // This page is {apiBase}/sdk/iframe/<version>/widget.html.
  const apiBase = new URL('../../../', pageUrl).href.replace(/\/$/, '');
  const { iframe, elements } = SDK_VERSIONS;
  return (
    `The iframe SDK ${iframe} is deprecated; Elements ${elements} takes the same ServiceFrontEndSDK calls: ` +
    `load ${apiBase}/sdk/elements/${elements}/sdk.js instead (its integrity is in ${apiBase}/sdk/manifest.json).`
  );
}

function refusalProblem(code: string): ProblemInfo {
  return code === 'origin_not_allowed'
    ? { status: 403, code: 'origin_not_allowed', detail: null, paths: [], requestId: null }
    : { status: 401, code: 'unauthorized', detail: null, paths: [], requestId: null };
}

/** The widget of a refused page: it reports the refusal when mounted, and again for every payment. */
function refusedWidget(error: SdkError) {
  return (events: WidgetEvents): WidgetHandle => {
    events.error(error);
    return {
      configure: () => undefined,
      pay: () => {
        events.error(error);
        return Promise.reject(new SdkErrorException(error));
      },
      destroy: () => undefined,
    };
  };
}

/**
 * The payment widget of this page, mounted by the engine (sdk-core's WidgetHandle, as Elements' element is): the view and
 * sdk-core's card form, plugged into sdk-core's WidgetController, which holds the session, the method choice, the pay
 * guards, the paying state and the errors.
 */
class Widget implements WidgetHandle {
  #mode: 'sandbox' | 'production';
  #methodType: SdkMethodType;
  #debug: boolean;
  /** `config({ maxInstallments })`: asked of the session (a change starts a new one). */
  #maxInstallments: number | undefined;
  #sessionKey = '';
  readonly #view: WidgetView;
  readonly #form: CardForm;
  readonly #installments: LazyInstallmentsField;
  readonly #widget: WidgetController;
  readonly #doc: Document;
  /** The bank's 3-D Secure page over the widget, while a card payment waits for it. */
  #authentication: AuthenticationDialogHandle | null = null;
  /** The page's texts in the widget's language (`en` until another language's catalogue has loaded). */
  readonly #locale = new LocaleState({ ...EN_WIDGET, ...EN_CARD }, () => {
    this.#view.setTexts(this.#locale.texts);
    this.#form.setTexts(this.#locale.texts);
    this.#installments.setTexts(this.#locale.texts);
    this.#authentication?.setTexts(this.#locale.texts);
    this.#render();
  });

  constructor(
    win: Window,
    private readonly config: WidgetConfig,
    events: WidgetEvents,
    private readonly embeddingOrigin: string,
    private readonly applyAppearance: (appearance: unknown) => Promise<void>,
  ) {
    const doc = win.document;
    this.#doc = doc;
    ({ mode: this.#mode, methodType: this.#methodType, debug: this.#debug, maxInstallments: this.#maxInstallments } = config);
    this.#widget = new WidgetController(
      {
        requestUpdate: () => this.#render(),
        events,
        shopperText: (key) => this.#locale.texts.t(key),
        sessionReady: (session) => this.#installments.setMax(session.maxInstallments),
        payByCard: ({ sessionId, sessionToken }, payment) => this.#payByCard({ sessionId, sessionToken, apiBase: config.apiBase, debug: this.#debug }, payment),
      },
      { name: 'svc-iframe-widget', debug: () => this.#debug },
    );
    this.#view = new WidgetView(
      doc,
      this.#locale.texts,
      (method) => this.#widget.select(method),
      () => this.#widget.renewSession(),
    );
    this.#form = mountCardForm(doc.getElementById('card')!, { onChange: (validation) => this.#widget.fieldsChanged(validation) });
    this.#installments = new LazyInstallmentsField(doc.getElementById('card-form')!, this.#locale.texts, (event) => this.#widget.log(event));
    this.#look(config);
    this.#render();
    this.#widget.log('configure', { mode: this.#mode, methodType: this.#methodType });
    // The catalogue loads beside the session: the widget shows en only while it is still on its way.
    void this.#locale.request(config.locale, config.apiBase);
    this.#startSession();
  }

  /** The client ID is the page's (another one loads another page); a change of mode or methodType starts a new session. */
  configure(config: WidgetConfig): void {
    const { mode, methodType, debug, locale, maxInstallments } = config;
    this.#maxInstallments = maxInstallments;
    void this.#locale.request(locale, this.config.apiBase);
    this.#mode = mode;
    this.#methodType = methodType;
    this.#debug = debug;
    this.#widget.log('configure', { mode, methodType });
    this.#look(config);
    this.#startSession();
  }

  /**
   * The appearance (checked as it is applied, once the checker has loaded; the engine warned about what it refuses) and
   * the merchant's methods. An appearance whose checker cannot be loaded is not applied: the widget keeps its look.
   */
  #look({ appearance, paymentMethods }: WidgetConfig): void {
    this.applyAppearance(appearance).catch((error: unknown) => this.#widget.log('appearance not applied', { reason: String(error) }));
    this.#widget.allowMethods(paymentMethods);
  }

  pay(options?: SdkPayOptions): Promise<Transaction> {
    return this.#widget.pay(options);
  }

  /** The page goes with the widget; a session load or a wallet payment still running is dropped, the bank's page closed. */
  destroy(): void {
    this.#widget.disconnect();
    this.#authentication?.close();
  }

  async #payByCard(session: FrameSession, payment: CardSubmitPayment) {
    const installments = this.#installments.value();
    try {
      // The request goes out before submitCardForm returns; the choice of payments is drawn busy after it.
      const submitted = submitCardForm(
        this.#form,
        session,
        { ...payment, ...(installments === undefined ? {} : { installments }) },
        (...details) => this.#widget.log('card payment', details),
        undefined,
        (url) => this.#authenticate(url),
      );
      this.#installments.setBusy(true);
      return await submitted;
    } finally {
      this.#installments.setBusy(false);
    }
  }

  /**
   * The bank's page (3-D Secure) in a dialog over the widget; the page grows to hold it (the loader sizes the iframe to
   * the page) and shrinks back when it closes.
   */
  #authenticate(url: string): AuthenticationPrompt {
    let cancel: () => void = () => undefined;
    const cancelled = new Promise<void>((resolve) => (cancel = resolve));
    this.#authentication?.close();
    // Its code comes from this page's folder (/sdk/iframe/<version>/), the first time a bank asks.
    const dialog = openAuthenticationDialog(
      { parent: this.#doc.body, url, serviceOrigin: new URL(this.config.apiBase).origin, texts: this.#locale.texts, onCancel: () => cancel() },
      this.#doc.baseURI,
      // Only once the dialog is there (a page it refuses throws above): no tall empty page first, none left behind.
      () => {
        this.#doc.body.classList.add('authenticating');
        this.#widget.log('authentication shown');
      },
      (error) => this.#widget.log('authentication script not loaded', { reason: String(error) }),
    );
    this.#authentication = dialog;
    return {
      cancelled,
      close: () => {
        dialog.close();
        if (this.#authentication !== dialog) return;
        this.#authentication = null;
        this.#doc.body.classList.remove('authenticating');
      },
    };
  }

  #render(): void {
    const widget = this.#widget;
    this.#view.render({
      phase: widget.phase,
      methods: widget.methods,
      selected: widget.selected,
      error: widget.error,
      retry: widget.session.status === 'error' && !widget.paying,
      sandbox: this.#mode === 'sandbox',
    });
  }

  /** A new session when mode or methodType change. */
  #startSession(): void {
    const maxInstallments = this.#maxInstallments;
    const key = `${this.#mode}|${this.#methodType}|${maxInstallments ?? 1}`;
    if (key === this.#sessionKey) return;
    this.#sessionKey = key;
    const { apiBase, clientId } = this.config;
    this.#widget.startSession({
      apiBase,
      clientId,
      mode: this.#mode,
      methodType: this.#methodType,
      embeddingOrigin: this.embeddingOrigin,
      ...(maxInstallments === undefined ? {} : { maxInstallments }),
    });
  }
}
