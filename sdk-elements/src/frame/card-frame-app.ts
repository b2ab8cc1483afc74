/**
 * The secure card frame: served by the service at {apiBase}/sdk/elements/1.1.1/card-frame.html?clientId=…&origin=…#instance=…
 * Handshake: posts `ready` to its parent (targetOrigin = the `origin` parameter), takes the session from the host's `init`,
 * reports `validation` and `size`, and on `submit` pays with the card itself and posts back only the `result`.
 */
import type { HostToFrameMessage } from '@svc/protocol';
import { CardForm, type CardValidation } from './card-form';
import { payWithCard, type FrameSession } from './card-payment';
import type { CardField } from './card-rules';
import { HostLink, instanceIdFrom, parentOriginFrom } from './host-link';
import { applyStyles } from './styles';

const FIELD_OF_PATH: Record<string, CardField> = { 'card.number': 'number', 'card.expMonth': 'expiry', 'card.expYear': 'expiry', 'card.cvc': 'cvc' };

export function startCardFrame(win: Window): void {
  const doc = win.document;
  applyStyles(doc);
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

  const link = new HostLink(win.parent, parentOrigin, instanceId, (message) => void handle(message));
  const form = new CardForm(doc, (validation: CardValidation) => {
    const key = JSON.stringify(validation);
    if (key === lastValidation) return;
    lastValidation = key;
    // Field names, brand and generic messages only: card data never goes into a message.
    link.post({ type: 'validation', isValid: validation.isValid, brand: validation.brand, errors: validation.errors });
  });
  doc.getElementById('card-form')?.addEventListener('submit', (event) => event.preventDefault());

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
      case 'reset':
        form.clear();
        return;
      case 'focus':
        form.focus();
        return;
      case 'submit':
        await submit(message);
    }
  }

  async function submit(message: Extract<HostToFrameMessage, { type: 'submit' }>): Promise<void> {
    const { requestId } = message;
    if (paying) {
      link.post({ type: 'result', requestId, ok: false, error: { code: 'payment_in_progress', message: 'A card payment is already in progress; wait for its result.' } });
      return;
    }
    if (!session) {
      link.post({ type: 'result', requestId, ok: false, error: { code: 'frame_unavailable', message: 'The card frame has no payment session yet; wait for the widget to finish loading, then pay again.' } });
      return;
    }
    form.showAllErrors();
    const card = form.cardInput();
    if (!card) {
      const first = form.validation().errors[0];
      log('submit refused: invalid fields', form.validation().errors.map((error) => error.field));
      link.post({ type: 'result', requestId, ok: false, error: { code: 'invalid_card', message: `The card details are not complete: ${first?.message ?? 'check the card'}` } });
      return;
    }
    paying = true;
    form.setBusy(true);
    log('submit');
    const outcome = await payWithCard(session, { card, amount: message.amount, currency: message.currency, billingAddress: message.billingAddress });
    paying = false;
    if (outcome.ok) {
      log('result ok', { transactionNumber: outcome.transaction.TransactionNumber, status: outcome.transaction.status });
      link.post({ type: 'result', requestId, ok: true, transaction: outcome.transaction });
      form.clear(); // the card is not kept once it is paid with
      return;
    }
    form.setBusy(false);
    for (const path of outcome.paths) {
      const field = FIELD_OF_PATH[path];
      if (field) form.showServerError(field, outcome.error.message);
    }
    log('result error', outcome.error.code);
    link.post({ type: 'result', requestId, ok: false, error: outcome.error });
  }

  link.start(win);
  link.post({ type: 'ready' });
  form.bind();
  observeSize(doc, (height, width) => link.post({ type: 'size', height, width }));
}

function observeSize(doc: Document, report: (height: number, width: number) => void): void {
  let last = '';
  const measure = (): void => {
    const rect = doc.documentElement.getBoundingClientRect();
    const height = Math.ceil(rect.height);
    const width = Math.ceil(rect.width);
    if (`${height}x${width}` === last) return;
    last = `${height}x${width}`;
    report(height, width);
  };
  new ResizeObserver(measure).observe(doc.documentElement);
  measure();
}
