/**
 * Pays with what the card form holds, for the card frame and the iframe SDK's widget page alike: every error shown and
 * the first invalid field focused when the card is incomplete, the fields read-only while the payment runs, emptied
 * once it is accepted (the card is not kept), and the service's field errors shown at their fields when refused.
 */
import type { BillingAddress, BrowserTransaction, SdkError } from '@svc/protocol';
import type { Authenticate, awaitAuthentication } from './card-authentication';
import type { CardForm, CardInput } from './card-form';
import { isRequiresAction, payWithCard, type FrameSession } from './card-payment';
import { lazyScript } from '../shared/lazy-script';
import type { ApiResult } from '../shared/post-json';
import { networkError } from '../shared/sdk-errors';

const CANNOT_AUTHENTICATE =
  "The shopper's bank asked for 3-D Secure, which the payment service's answer did not let the widget show. Please report this to the payment service.";

export type CardSubmitOutcome = { ok: true; transaction: BrowserTransaction } | { ok: false; error: SdkError };

export interface CardSubmitPayment {
  amount?: number | undefined;
  currency?: string | undefined;
  billingAddress?: BillingAddress | undefined;
  /** The number of payments chosen beside the card fields (sent only where they are offered). */
  installments?: number | undefined;
}

/**
 * `log` gets field names and codes only, never card data nor the billing address. `onAccepted` hears of an accepted
 * payment before the form is emptied: the card frame posts its result there, so the page learns of the payment before
 * the emptied form's validation. `authenticate` shows the bank's page when the payment asks for 3-D Secure
 * (card-authentication.ts, a script of its own loaded then: shared/lazy-script.ts); the fields stay read-only until the
 * bank or the shopper has answered. Should anything throw
 * on the way (a defect, not a refusal), the fields are editable again before the error reaches the caller.
 */
export async function submitCardForm(
  form: CardForm,
  session: FrameSession,
  payment: CardSubmitPayment,
  log: (...details: unknown[]) => void = () => undefined,
  onAccepted: (transaction: BrowserTransaction) => void = () => undefined,
  authenticate?: Authenticate,
): Promise<CardSubmitOutcome> {
  const card = form.cardInput();
  if (!card) {
    form.showAllErrors();
    const errors = form.validation().errors;
    log(
      'submit refused: invalid fields',
      errors.map((error) => error.field),
    );
    // Nothing was sent: the fields are not valid yet (invalid_card is the service refusing a card it was sent).
    return { ok: false, error: { code: 'fields_incomplete', message: `The card details are not complete yet: ${errors[0]?.message ?? 'check the card'}` } };
  }
  log('submit');
  // The request goes first (`fetch` is called before `pay` returns); the form's busy and submitted state is drawn after
  // it, in the same task, so no input reaches the fields in between and the request does not wait for the redraw.
  const answer = pay(card, session, payment, log, authenticate);
  form.setBusy(true);
  form.showAllErrors();
  let outcome: ApiResult<BrowserTransaction>;
  try {
    outcome = await answer;
  } catch (error) {
    // A defect of ours (the caller reports it): the fields are given back to the shopper first.
    form.setBusy(false);
    throw error;
  }
  if (outcome.ok) {
    onAccepted(outcome.value);
    form.clear();
    return { ok: true, transaction: outcome.value };
  }
  form.setBusy(false);
  form.showServerErrorAt(outcome.paths, outcome.error.message);
  return { ok: false, error: outcome.error };
}

/** The payment, and the bank's answer when it asks for 3-D Secure. */
async function pay(
  card: CardInput,
  session: FrameSession,
  payment: CardSubmitPayment,
  log: (...details: unknown[]) => void,
  authenticate: Authenticate | undefined,
): Promise<ApiResult<BrowserTransaction>> {
  const answer = await payWithCard(session, { card, ...payment });
  if (!answer.ok || !isRequiresAction(answer.value)) return answer as ApiResult<BrowserTransaction>;
  if (!authenticate || !answer.value.transactionNumber) {
    log('authentication asked, but it cannot be shown');
    return { ok: false, error: { code: 'internal_error', message: CANNOT_AUTHENTICATE }, paths: [] };
  }
  log('authentication asked');
  const { transactionNumber } = answer.value;
  const prompt = authenticate(answer.value.action.url);
  let wait: typeof awaitAuthentication;
  try {
    // From this page's folder (the SDK's files), while the bank's page is on its way; it replays what the bank said meanwhile.
    wait = await lazyScript<typeof awaitAuthentication>('card-authentication', document.baseURI, () =>
      import('./card-authentication').then((module) => module.awaitAuthentication),
    );
  } catch {
    log('authentication script not loaded');
    prompt.close();
    return { ok: false, error: networkError('Loading the 3-D Secure authentication'), paths: [] };
  }
  return wait(session, { ...answer.value, transactionNumber }, prompt, log);
}
