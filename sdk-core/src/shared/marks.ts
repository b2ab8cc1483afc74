/**
 * Brand marks for the wallets and the card brands, from Simple Icons (the `simple-icons` package, CC0-1.0; each brand's
 * own trademark, shown only to name the brand, as its guidelines allow). The build inlines only the icons imported
 * here; a mark is drawn as an inline `<svg>` (no image is loaded: the frames' Content-Security-Policy forbids that).
 */
import { siAmericanexpress, siDinersclub, siDiscover, siGoogle, siJcb, siMastercard, siPaypal, siVisa } from 'simple-icons';

export interface Mark {
  /** The SVG path, in a 24 × 24 box. */
  path: string;
  /** The brand's colour, `#rrggbb`. */
  color: string;
}

const mark = (icon: { path: string; hex: string }): Mark => ({ path: icon.path, color: `#${icon.hex}` });

/**
 * Simple Icons' Apple Pay wordmark (`siApplepay`, black) with every point rounded to a tenth of the 24-unit box (at
 * most 0.05 off, a tenth of a pixel on a 48 px button; marks.test.ts compares it with the original): its 2,520
 * characters of path were 1.4 KB of Express's 18 KB budget, these 1,605 about 0.7 KB. Rounded in absolute terms, so the
 * relative commands' errors do not add up.
 */
const APPLE_PAY_WORDMARK: Mark = {
  path: 'M2.2 4.3a42.2 42.2 0 0 0-.5 0c-.2 0-.3 0-.5.1a1.4 1.4 0 0 0-1 .7c-.1.2-.1.3-.2.5 0 .1 0 .3 0 .4A10.2 10.2 0 0 0 0 6.2v11.6c0 0 0 .1 0 .2 0 .1 0 .3 0 .4.1.2.1.3.2.5a1.4 1.4 0 0 0 .6.6c.2.1.3.1.4.1.2.1.3.1.5.1l.2 0h20.2l.2 0c.2 0 .3 0 .5-.1.1 0 .2 0 .4-.1a1.4 1.4 0 0 0 .6-.6c.1-.2.1-.3.2-.5 0-.1 0-.3 0-.4 0-.1 0-.2 0-.2l0-.3V6.2c0 0 0-.1 0-.2a3 3 0 0 0 0-.4 1.4 1.4 0 0 0-1.2-1.2 3 3 0 0 0-.5-.1 10.4 10.4 0 0 0-.4 0zm0 .5h19.9c.1 0 .1 0 .2 0 .1 0 .2 0 .4.1.1 0 .2 0 .3.1a.9.9 0 0 1 .4.4 1 1 0 0 1 .1.3c0 .1 0 .2 0 .3 0 .1 0 .2 0 .2v11.6c0 0 0 .1 0 .2 0 .1 0 .2 0 .3a.9.9 0 0 1-.5.7 1 1 0 0 1-.3.1 2.6 2.6 0 0 1-.4.1l-.2 0H1.9c-.1 0-.1 0-.2 0a2.6 2.6 0 0 1-.4-.1c-.1 0-.2 0-.3-.1a.9.9 0 0 1-.4-.4 1 1 0 0 1-.1-.3 2.5 2.5 0 0 1 0-.3 9.6 9.6 0 0 1 0-.2V6.2c0 0 0-.1 0-.2 0-.1 0-.2 0-.3.1-.2.1-.2.1-.3a.9.9 0 0 1 .4-.4 1 1 0 0 1 .3-.1c.2-.1.3-.1.4-.1.1 0 .1 0 .2 0zm4.7 3.7c-.3 0-.7.2-.9.5-.2.2-.4.6-.3.9.3 0 .6-.2.9-.4.2-.3.3-.6.3-1zm2.2.5v5.4h.8v-1.8h1.2c1.1 0 1.8-.8 1.8-1.8 0-1.1-.7-1.9-1.8-1.9zm.8.7h1c.7 0 1.2.4 1.2 1.1 0 .7-.5 1.1-1.2 1.1h-1zm-3.1.3c-.5 0-.9.2-1.1.2-.2 0-.6-.2-1-.2a1.4 1.4 0 0 0-1.2.7c-.5.9-.1 2.3.4 3 .2.4.5.8.9.8.4 0 .5-.3 1-.3.4 0 .6.3 1 .3.4 0 .6-.4.9-.8.3-.4.4-.8.4-.8 0 0-.8-.3-.8-1.2 0-.8.6-1.1.6-1.1-.3-.6-.9-.6-1-.6a1.1 1.1 0 0 0-.1 0zm8.2.4c-1 0-1.6.5-1.7 1.2h.8c.1-.3.4-.6.8-.6.5 0 .8.3.8.7v.4l-1.1 0c-.9.1-1.4.5-1.4 1.2 0 .7.5 1.2 1.3 1.2.5 0 1-.3 1.3-.7h0v.6h.8v-2.7c0-.8-.7-1.3-1.6-1.3zm1.9 0l1.5 4c0 .1-.1.3-.1.3-.1.4-.3.6-.7.6-.1 0-.2 0-.3 0v.6c.1 0 .3 0 .3 0 .9 0 1.3-.3 1.6-1.2l1.5-4.3h-.9l-1 3.3h0l-1-3.3zm-1.2 2.2v.3c0 .6-.4 1-1 1-.4 0-.7-.3-.7-.6 0-.4.3-.6.8-.6z',
  color: '#000000',
};

/**
 * The wallets' marks on Express's buttons: PayPal's monogram, the Apple Pay wordmark, and Google's "G" (the Google Pay
 * wordmark would take Express over its size budget), each beside or instead of the wallet's name.
 */
export const WALLET_MARKS = /* @__PURE__ */ (() => ({ paypal: mark(siPaypal), applepay: APPLE_PAY_WORDMARK, googlepay: mark(siGoogle) }) as const)();

/** By the card rules' brand id; a brand without a mark (UnionPay) is named in words. */
export const CARD_MARKS: Readonly<Record<string, Mark>> = /* @__PURE__ */ (() => ({
  visa: mark(siVisa),
  mastercard: mark(siMastercard),
  amex: mark(siAmericanexpress),
  discover: mark(siDiscover),
  jcb: mark(siJcb),
  diners: mark(siDinersclub),
}))();

const SVG_NS = 'http://www.w3.org/2000/svg';

/** `<svg aria-hidden="true" viewBox="0 0 24 24"><path d=…></svg>` filled with `fill` (default: the brand's colour). */
export function createMark(doc: Document, { path, color }: Mark, fill: string = color): SVGSVGElement {
  const svg = doc.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const shape = doc.createElementNS(SVG_NS, 'path');
  shape.setAttribute('d', path);
  shape.setAttribute('fill', fill);
  svg.append(shape);
  return svg;
}
