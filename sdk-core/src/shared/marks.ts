/**
 * Brand marks for the wallets and the card brands, from Simple Icons (the `simple-icons` package, CC0-1.0; each brand's
 * own trademark, shown only to name the brand, as its guidelines allow). The build inlines only the icons imported
 * here; a mark is drawn as an inline `<svg>` (no image is loaded: the frames' Content-Security-Policy forbids that).
 */
import { siAmericanexpress, siApplepay, siDinersclub, siDiscover, siGoogle, siJcb, siMastercard, siPaypal, siVisa } from 'simple-icons';

export interface Mark {
  /** The SVG path, in a 24 × 24 box. */
  path: string;
  /** The brand's colour, `#rrggbb`. */
  color: string;
}

const mark = (icon: { path: string; hex: string }): Mark => ({ path: icon.path, color: `#${icon.hex}` });

/**
 * The wallets' marks on Express's buttons: PayPal's monogram, the Apple Pay wordmark, and Google's "G" (the Google Pay
 * wordmark would take Express over its size budget), each beside or instead of the wallet's name.
 */
export const WALLET_MARKS = /* @__PURE__ */ (() => ({ paypal: mark(siPaypal), applepay: mark(siApplepay), googlepay: mark(siGoogle) }) as const)();

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
