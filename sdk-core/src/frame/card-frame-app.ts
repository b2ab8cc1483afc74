/**
 * The secure card frame: served by the service at {apiBase}/sdk/elements/1.1.1/card-frame.html?clientId=…&origin=…[&lang=…]#instance=…
 * Handshake: posts `ready` to its parent (targetOrigin = the `origin` parameter), takes the session from the host's `init`,
 * reports `validation` and `size`, applies the `appearance` it is sent (after checking it) and answers with the `look`
 * it accepted (what the host applies to its own parts), and on `submit` pays with the card itself and posts back only
 * the `result`.
 */
import type { HostToFrameMessage } from '@svc/protocol';
import { frameEnd } from '../shared/channel';
import { EN_CARD } from '../shared/i18n/en';
import { LocaleState } from '../shared/i18n/locale-state';
import { mountCardForm, type CardValidation } from './card-form';
import type { FrameSession } from './card-payment';
import { submitCardForm } from './card-submit';
import { instanceIdFrom, languageFrom, parentOriginFrom } from './frame-url';
import { observeSize } from './observe-size';
import { applyCardFormStyles } from './styles';

export function startCardFrame(win: Window): void {
  const doc = win.document;
  const applyAppearance = applyCardFormStyles(doc);
  const parentOrigin = parentOriginFrom(win.location.search);
  const instanceId = instanceIdFrom(win.location.hash);
  if (!parentOrigin || !instanceId || win.parent === win) {
    console.error('[svc-card-frame] frame-not-embedded: open this page only through the Elements SDK (it needs ?origin=… and #instance=…).');
    for (const input of doc.querySelectorAll('input')) input.disabled = true;
    return;
  }

  let session: FrameSession | null = null;
  let paying = false;
  let lastValidation = '';
  const log = (...args: unknown[]): void => {
    if (session?.debug) console.debug('[svc-card-frame]', ...args);
  };

  const link = frameEnd(win, { peerOrigin: parentOrigin, peerWindow: () => win.parent, instanceId, onMessage: (message) => void handle(message) });
  link.open();
  link.send({ type: 'ready' });
  const form = mountCardForm(doc, {
    onChange: (validation: CardValidation) => {
      const key = JSON.stringify(validation);
      if (key === lastValidation) return;
      lastValidation = key;
      // Field names, brand and generic messages only: card data never goes into a message.
      link.send({ type: 'validation', isValid: validation.isValid, brand: validation.brand, errors: validation.errors });
    },
  });
  observeSize(doc, (height, width) => link.send({ type: 'size', height, width }));
  // The host's language: the one it made the frame with (`lang`, which the server already rendered the page in) at
  // once, then a `locale` message after `ready` and on every change; the catalogue comes from this origin.
  const locale = new LocaleState(EN_CARD, () => {
    doc.documentElement.lang = locale.texts.language;
    doc.documentElement.dir = locale.texts.dir;
    form.setTexts(locale.texts);
  });
  const language = languageFrom(win.location.search);
  if (language && language !== 'en') void locale.use(language, win.location.origin);

  async function handle(message: HostToFrameMessage): Promise<void> {
    switch (message.type) {
      case 'init': {
        if (new URL(message.apiBase).origin !== win.location.origin) {
          console.error(`[svc-card-frame] foreign-api-base: the card goes only to this frame's own origin (${win.location.origin}), not ${message.apiBase}.`);
          return;
        }
        session = { sessionId: message.sessionId, sessionToken: message.sessionToken, apiBase: message.apiBase.replace(/\/+$/, ''), debug: message.debug };
        log('init', { sessionId: message.sessionId });
        return;
      }
      case 'appearance': {
        // Checked here (the page is not trusted with it): what is refused is never applied. The host applies to its own
        // parts what this frame accepted, and nothing else.
        const { variables, rules, refusals } = applyAppearance(message.appearance);
        if (refusals.length) log('appearance refused', refusals);
        link.send({ type: 'look', variables, rules, refusals });
        return;
      }
      case 'reset':
        form.clear();
        return;
      case 'focus':
        form.focus();
        return;
      case 'locale':
        await locale.use(message.locale, win.location.origin);
        return;
      case 'submit':
        await submit(message);
    }
  }

  async function submit(message: Extract<HostToFrameMessage, { type: 'submit' }>): Promise<void> {
    const { requestId } = message;
    if (paying) {
      link.send({
        type: 'result',
        requestId,
        ok: false,
        error: { code: 'payment_in_progress', message: 'A card payment is already in progress; wait for its result.' },
      });
      return;
    }
    if (!session) {
      link.send({
        type: 'result',
        requestId,
        ok: false,
        error: { code: 'frame_unavailable', message: 'The card frame has no payment session yet; wait for the widget to finish loading, then pay again.' },
      });
      return;
    }
    paying = true;
    const outcome = await submitCardForm(
      form,
      session,
      { amount: message.amount, currency: message.currency, billingAddress: message.billingAddress },
      log,
      (transaction) => {
        log('result ok', { transactionNumber: transaction.TransactionNumber, status: transaction.status });
        link.send({ type: 'result', requestId, ok: true, transaction });
      },
    );
    paying = false;
    if (outcome.ok) return;
    log('result error', outcome.error.code);
    link.send({ type: 'result', requestId, ok: false, error: outcome.error });
  }
}
