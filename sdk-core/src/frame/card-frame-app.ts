/**
 * The secure card frame: served by the service at {apiBase}/sdk/elements/1.1.1/card-frame.html?clientId=…&origin=…[&lang=…]#instance=…
 * Handshake: posts `ready` to its parent (targetOrigin = the `origin` parameter), takes the session from the host's `init`,
 * reports `validation` and `size`, applies the `appearance` it is sent (after checking it) and answers with the `look`
 * it accepted (what the host applies to its own parts), and on `submit` pays with the card itself and posts back only
 * the `result`.
 */
import type { FrameToHostMessage, HostToFrameMessage } from '@svc/protocol';
import type { CheckedAppearance } from '../shared/appearance-css';
import { frameEnd, type PostMessageChannel } from '../shared/channel';
import { EN_CARD_FRAME } from '../shared/i18n/en';
import { Texts } from '../shared/i18n/texts';
import { LocaleState } from '../shared/i18n/locale-state';
import type { AuthenticationPrompt } from './card-authentication';
import { mountCardForm, type CardForm, type CardValidation } from './card-form';
import type { CardFrameTextKey } from './card-form-markup';
import type { FrameSession } from './card-payment';
import { submitCardForm, type CardSubmitOutcome } from './card-submit';
import { instanceIdFrom, languageFrom, parentOriginFrom } from './frame-url';
import { LazyInstallmentsField } from './lazy-installments-field';
import { observeSize } from './observe-size';
import { applyCardFormStyles } from './styles';

type SubmitMessage = Extract<HostToFrameMessage, { type: 'submit' }>;

const EN_TEXTS = new Texts(EN_CARD_FRAME);

/** Starts the card frame in `win`; null (its inputs disabled) when the page was not opened by the Elements SDK. */
export function startCardFrame(win: Window): CardFrame | null {
  const doc = win.document;
  const applyAppearance = applyCardFormStyles(doc);
  const parentOrigin = parentOriginFrom(win.location.search);
  const instanceId = instanceIdFrom(win.location.hash);
  if (!parentOrigin || !instanceId || win.parent === win) {
    console.error('[svc-card-frame] frame-not-embedded: open this page only through the Elements SDK (it needs ?origin=… and #instance=…).');
    for (const input of doc.querySelectorAll('input')) input.disabled = true;
    return null;
  }
  return new CardFrame(win, parentOrigin, instanceId, applyAppearance);
}

/** One card frame page: its channel to the host, its card form, its language and the payment it runs. */
export class CardFrame {
  #session: FrameSession | null = null;
  #paying = false;
  #lastValidation = '';
  readonly #link: PostMessageChannel<HostToFrameMessage, FrameToHostMessage>;
  readonly #form: CardForm;
  readonly #locale: LocaleState<CardFrameTextKey>;
  readonly #installments: LazyInstallmentsField;
  /** The shopper's cancel of the bank's page now on show (3-D Secure), by the payment's request id. */
  readonly #cancels = new Map<string, () => void>();

  constructor(
    private readonly win: Window,
    parentOrigin: string,
    instanceId: string,
    private readonly applyAppearance: (appearance: unknown) => CheckedAppearance,
  ) {
    const doc = win.document;
    const link = frameEnd(win, { peerOrigin: parentOrigin, peerWindow: () => win.parent, instanceId, onMessage: (message) => void this.#handle(message) });
    this.#link = link;
    link.open();
    link.send({ type: 'ready' });
    this.#form = mountCardForm(doc, { onChange: (validation) => this.#validated(validation) });
    this.#installments = new LazyInstallmentsField(doc.getElementById('card-form')!, EN_TEXTS, (event) => this.#log(event));
    observeSize(doc, (height, width) => link.send({ type: 'size', height, width }));
    // The host's language: the one it made the frame with (`lang`, which the server already rendered the page in) at
    // once, then a `locale` message after `ready` and on every change; the catalogue comes from this origin.
    this.#locale = new LocaleState(EN_CARD_FRAME, () => {
      const { texts } = this.#locale;
      doc.documentElement.lang = texts.language;
      doc.documentElement.dir = texts.dir;
      doc.title = texts.t('widget.frame');
      const heading = doc.querySelector('h1');
      if (heading) heading.textContent = texts.t('card.form');
      this.#form.setTexts(texts);
      this.#installments.setTexts(texts);
    });
    const language = languageFrom(win.location.search);
    if (language && language !== 'en') void this.#locale.use(language, win.location.origin);
  }

  /** A line of the frame's debug log (when the host asked for it): field names and codes, never card data. */
  #log(...args: unknown[]): void {
    if (this.#session?.debug) console.debug('[svc-card-frame]', ...args);
  }

  #validated(validation: CardValidation): void {
    const key = JSON.stringify(validation);
    if (key === this.#lastValidation) return;
    this.#lastValidation = key;
    // Field names, brand and generic messages only: card data never goes into a message.
    this.#link.send({ type: 'validation', isValid: validation.isValid, brand: validation.brand, errors: validation.errors });
  }

  async #handle(message: HostToFrameMessage): Promise<void> {
    const origin = this.win.location.origin;
    switch (message.type) {
      case 'init': {
        if (new URL(message.apiBase).origin !== origin) {
          console.error(`[svc-card-frame] foreign-api-base: the card goes only to this frame's own origin (${origin}), not ${message.apiBase}.`);
          return;
        }
        this.#session = {
          sessionId: message.sessionId,
          sessionToken: message.sessionToken,
          apiBase: message.apiBase.replace(/\/+$/, ''),
          debug: message.debug,
        };
        this.#installments.setMax(message.maxInstallments ?? 1);
        this.#log('init', { sessionId: message.sessionId, maxInstallments: message.maxInstallments ?? 1 });
        return;
      }
      case 'appearance': {
        // Checked here (the page is not trusted with it): what is refused is never applied. The host applies to its own
        // parts what this frame accepted, and nothing else.
        const { variables, rules, refusals } = this.applyAppearance(message.appearance);
        if (refusals.length) this.#log('appearance refused', refusals);
        this.#link.send({ type: 'look', variables, rules, refusals });
        return;
      }
      case 'reset':
        return this.#form.clear();
      case 'focus':
        return this.#form.focus();
      case 'locale':
        return this.#locale.use(message.locale, origin);
      case 'submit':
        return this.#submit(message);
      case 'cancelAuthentication':
        return this.#cancels.get(message.requestId)?.();
    }
  }

  async #submit({ requestId, amount, currency, billingAddress }: SubmitMessage): Promise<void> {
    const refuse = (error: { code: 'payment_in_progress' | 'frame_unavailable'; message: string }): void =>
      void this.#link.send({ type: 'result', requestId, ok: false, error });
    if (this.#paying) return refuse({ code: 'payment_in_progress', message: 'A card payment is already in progress; wait for its result.' });
    const session = this.#session;
    if (!session) {
      return refuse({
        code: 'frame_unavailable',
        message: 'The card frame has no payment session yet; wait for the widget to finish loading, then pay again.',
      });
    }
    this.#paying = true;
    const installments = this.#installments.value();
    let outcome: CardSubmitOutcome;
    try {
      // The request goes out before submitCardForm returns; the choice of payments is drawn busy after it.
      const submitted = submitCardForm(
        this.#form,
        session,
        { amount, currency, billingAddress, ...(installments === undefined ? {} : { installments }) },
        (...details) => this.#log(...details),
        (transaction) => {
          this.#log('result ok', { transactionNumber: transaction.TransactionNumber, status: transaction.status });
          this.#link.send({ type: 'result', requestId, ok: true, transaction });
        },
        (url) => this.#authenticate(requestId, url),
      );
      this.#installments.setBusy(true);
      outcome = await submitted;
    } catch (error) {
      // A defect of ours, not a refusal: the host hears of it at once instead of waiting for its time-out.
      console.error('[svc-card-frame] payment failed', error instanceof Error ? error.name : typeof error);
      outcome = {
        ok: false,
        error: { code: 'internal_error', message: 'The card frame failed during the payment. Please report this to the payment service.' },
      };
    } finally {
      this.#paying = false;
      this.#installments.setBusy(false);
    }
    if (outcome.ok) return;
    this.#log('result error', outcome.error.code);
    this.#link.send({ type: 'result', requestId, ok: false, error: outcome.error });
  }

  /**
   * The bank's page for payment `requestId` (3-D Secure): the host shows it in its dialog; the shopper ending the dialog
   * comes back as `cancelAuthentication`. The host closes its dialog on this payment's `result`.
   */
  #authenticate(requestId: string, url: string): AuthenticationPrompt {
    let cancel: () => void = () => undefined;
    const cancelled = new Promise<void>((resolve) => (cancel = resolve));
    this.#cancels.set(requestId, cancel);
    this.#log('authentication shown');
    this.#link.send({ type: 'authentication', requestId, url });
    return { cancelled, close: () => void this.#cancels.delete(requestId) };
  }
}
