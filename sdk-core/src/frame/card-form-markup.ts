/**
 * The card form's markup: the one source of its labels, ids, autocomplete tokens and accessible names (docs/integrating.md#accessible-names).
 * The Elements card frame page is built with it (sdk-elements/build.mjs puts it into card-frame.html), a server-rendered
 * page (the hosted page) writes it into its HTML, and a page built in the browser calls `renderCardForm`. The DOM is
 * touched only when renderCardForm is called: the server can import this module.
 */
export const CARD_FORM_HTML = [
  '<form id="card-form" novalidate autocomplete="on" aria-label="Card details">',
  '<div class="field">',
  '<label for="number">Card number</label>',
  '<div class="control"><input id="number" name="cardnumber" type="text" inputmode="numeric" autocomplete="cc-number" autocorrect="off" spellcheck="false" placeholder="1234 1234 1234 1234" aria-invalid="false" aria-describedby="brand number-error"><span id="brand" class="brand"></span></div>',
  '<p id="number-error" class="error" aria-live="polite"></p>',
  '</div>',
  '<div class="row">',
  '<div class="field">',
  '<label for="expiry">Expiry date (MM/YY)</label>',
  '<input id="expiry" name="exp-date" type="text" inputmode="numeric" autocomplete="cc-exp" autocorrect="off" spellcheck="false" placeholder="MM/YY" maxlength="7" aria-invalid="false" aria-describedby="expiry-error">',
  '<p id="expiry-error" class="error" aria-live="polite"></p>',
  '</div>',
  '<div class="field">',
  '<label for="cvc">Security code (CVC)</label>',
  '<input id="cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc" autocorrect="off" spellcheck="false" placeholder="CVC" maxlength="4" aria-invalid="false" aria-describedby="cvc-error">',
  '<p id="cvc-error" class="error" aria-live="polite"></p>',
  '</div>',
  '</div>',
  '</form>',
].join('\n');

/** Appends the card form's markup to `root` (an element of a page that has no server-rendered form); then mountCardForm. */
export function renderCardForm(root: Element): void {
  const template = root.ownerDocument.createElement('template');
  template.innerHTML = CARD_FORM_HTML; // a constant of this module, never data
  root.append(template.content);
}
