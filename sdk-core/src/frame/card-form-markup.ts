/**
 * The card form's markup: the one source of its labels, ids, autocomplete tokens and accessible names (docs/integrating.md#accessible-names).
 * The Elements card frame page is built with it (sdk-elements/build.mjs puts it into card-frame.html), a server-rendered
 * page (the hosted page) writes it into its HTML in the page's language (`cardFormHtml`), and a page built in the
 * browser calls `renderCardForm`. The three inputs stay left to right in every language (`dir="ltr"`): a card number
 * reads the same in Hebrew and Arabic. The DOM is touched only when renderCardForm is called: the server can import this module.
 */
import { EN_CARD, EN_CARD_FRAME } from '../shared/i18n/en';

type CardTextKey = keyof typeof EN_CARD;
/** The card frame page's texts: the card form's, and what the frame is (`widget.frame`, the iframe's title too). */
export type CardFrameTextKey = keyof typeof EN_CARD_FRAME;

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The card form with the texts of `t` (a catalogue's card entries; `en` when left out). */
export function cardFormHtml(t: (key: CardTextKey) => string = (key) => EN_CARD[key]): string {
  const text = (key: CardTextKey): string => escape(t(key));
  return [
    `<form id="card-form" novalidate autocomplete="on" aria-label="${text('card.form')}">`,
    '<div class="field">',
    `<label for="number">${text('card.number.label')}</label>`,
    `<div class="control" dir="ltr"><input id="number" name="cardnumber" type="text" dir="ltr" inputmode="numeric" autocomplete="cc-number" autocorrect="off" spellcheck="false" placeholder="${text('card.number.placeholder')}" aria-invalid="false" aria-describedby="brand number-error"><span id="brand" class="brand"></span></div>`,
    '<p id="number-error" class="error" aria-live="polite"></p>',
    '</div>',
    '<div class="row">',
    '<div class="field">',
    `<label for="expiry">${text('card.expiry.label')}</label>`,
    `<input id="expiry" name="exp-date" type="text" dir="ltr" inputmode="numeric" autocomplete="cc-exp" autocorrect="off" spellcheck="false" placeholder="${text('card.expiry.placeholder')}" maxlength="7" aria-invalid="false" aria-describedby="expiry-error">`,
    '<p id="expiry-error" class="error" aria-live="polite"></p>',
    '</div>',
    '<div class="field">',
    `<label for="cvc">${text('card.cvc.label')}</label>`,
    `<input id="cvc" name="cvc" type="text" dir="ltr" inputmode="numeric" autocomplete="cc-csc" autocorrect="off" spellcheck="false" placeholder="${text('card.cvc.placeholder')}" maxlength="4" aria-invalid="false" aria-describedby="cvc-error">`,
    '<p id="cvc-error" class="error" aria-live="polite"></p>',
    '</div>',
    '</div>',
    '</form>',
  ].join('\n');
}

/** The card form in `en`. */
export const CARD_FORM_HTML = cardFormHtml();

/**
 * The card frame page's `<title>` and its heading for screen readers (sdk-elements/src/card-frame.html holds them in
 * `en`), with the texts of `t`: the service serves the page in the widget's language, and the frame's script switches
 * them with the rest.
 */
export const cardFrameTitleHtml = (t: (key: CardFrameTextKey) => string = (key) => EN_CARD_FRAME[key]): string => `<title>${escape(t('widget.frame'))}</title>`;
export const cardFrameHeadingHtml = (t: (key: CardFrameTextKey) => string = (key) => EN_CARD_FRAME[key]): string =>
  `<h1 class="visually-hidden">${escape(t('card.form'))}</h1>`;

/** Appends the card form's markup to `root` (an element of a page that has no server-rendered form); then mountCardForm. */
export function renderCardForm(root: Element): void {
  const template = root.ownerDocument.createElement('template');
  template.innerHTML = CARD_FORM_HTML; // a constant of this module, never data
  root.append(template.content);
}
