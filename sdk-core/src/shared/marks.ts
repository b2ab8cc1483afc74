/**
 * Brand marks for the wallets and the card brands, from Simple Icons (the `simple-icons` package, CC0-1.0; each brand's
 * own trademark, shown only to name the brand, as its guidelines allow). The build inlines only the icons imported
 * here; a mark is drawn as an inline `<svg>` (no image is loaded: the frames' Content-Security-Policy forbids that).
 */
import { siDinersclub, siDiscover, siPaypal } from 'simple-icons';

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
export const WALLET_MARKS = /* @__PURE__ */ (() =>
  ({
    paypal: mark(siPaypal),
    applepay: APPLE_PAY_WORDMARK,
    // Simple Icons' `siGoogle`, rounded as the Apple Pay wordmark is.
    googlepay: {
      path: 'M12.5 10.9v3.3h7.8c-.2 1.8-.8 3.2-1.8 4.1-1.1 1.2-2.9 2.4-6 2.4-4.8 0-8.6-3.9-8.6-8.7s3.8-8.7 8.6-8.7c2.6 0 4.5 1 5.9 2.3l2.3-2.3c-2-1.9-4.6-3.3-8.2-3.3-6.6 0-12.2 5.4-12.2 12s5.6 12 12.2 12c3.6 0 6.2-1.2 8.4-3.4 2.1-2.1 2.8-5.2 2.8-7.6 0-.8-.1-1.5-.2-2.1h-11z',
      color: '#4285F4',
    },
  }) as const)();

/**
 * The card brands' marks of Simple Icons (`siVisa`, `siMastercard`, `siAmericanexpress`, `siJcb`) with every point
 * rounded to a tenth of the 24-unit box, as the Apple Pay wordmark is (marks.test.ts compares each with the original):
 * the card frame and the iframe widget carry them, and their 5,934 characters of path cost about 2 KB of gzip more in
 * each. Discover's (a near-full circle drawn as an arc moves too far when rounded) and Diners Club's are Simple Icons'.
 */
const ROUNDED_CARD_MARKS: Readonly<Record<string, Mark>> = {
  visa: {
    path: 'M9.1 8.3l-3.1 7.5h-2.1l-1.5-6c-.1-.4-.2-.5-.5-.7-.5-.2-1.2-.5-1.9-.6l0-.2h3.3a.904.904 0 0 1 .9.7l.9 4.4 2-5.1zm8 5c.1-2-2.7-2.1-2.7-3 0-.2.3-.5.8-.6a3.66 3.66 0 0 1 2 .3l.3-1.5a5.207 5.207 0 0 0 -1.8 -.4c-1.9 0-3.3 1-3.3 2.5 0 1.1 1 1.7 1.7 2 .8.4 1 .6 1 1 0 .5-.6.7-1.1.7-1 0-1.6-.3-2-.5l-.4 1.7c.5.2 1.3.4 2.2.4 2 0 3.3-1 3.3-2.6m5.1 2.5h1.8l-1.6-7.5h-1.6a.883.883 0 0 0 -.8.5l-3 7h2.1l.4-1.2h2.5zm-2.2-2.7l1.1-2.8.6 2.8zm-8.1-4.8l-1.6 7.5h-2l1.6-7.5z',
    color: '#1A1F71',
  },
  mastercard: {
    path: 'M11.3 18c.1.1.2.1.2.2-1.2.8-2.6 1.2-4.1 1.2-4.1 0-7.4-3.3-7.4-7.4 0-4.1 3.3-7.4 7.4-7.4 1.5 0 2.9.4 4.1 1.2 0 .1-.1.1-.1.2-1.8 1.5-2.8 3.7-2.8 6 0 2.3 1 4.5 2.7 6zm5.3-13.4c-1.5 0-2.9.4-4.1 1.2 0 .1.1.1.1.2 1.8 1.5 2.8 3.7 2.8 6 0 2.3-1 4.5-2.7 6-.1.1-.2.1-.2.2 1.2.8 2.6 1.2 4.1 1.2 4.1 0 7.4-3.3 7.4-7.4 0-4.1-3.3-7.4-7.4-7.4zm-4.6 1.6c-.1 0-.2.1-.3.2-1.5 1.4-2.5 3.4-2.5 5.6 0 2.2 1 4.2 2.5 5.6.1.1.2.2.3.2.1 0 .2-.1.3-.2 1.5-1.4 2.5-3.4 2.5-5.6 0-2.2-1-4.2-2.5-5.6-.1-.1-.2-.2-.3-.2z',
    color: '#EB001B',
  },
  amex: {
    path: 'M16 14.4c0-.3-.1-.5-.3-.6-.2-.2-.5-.2-.8-.2h-1.6v2.8h.7v-1h.7c.3 0 .4 0 .5.1.1.2.1.4.1.6v.3h.7v-.5c0-.3-.1-.4-.2-.5 0-.1-.1-.2-.3-.3c.2 0 .5-.3.5-.7zm-.9.4c-.1 0-.2 0-.3 0h-.8v-.6h.8c.1 0 .2 0 .3.1.1 0 .2.1.2.2 0 .1-.1.2-.2.3zm5.2 1h-1.3v.6h1.3c.7 0 1.1-.2 1.1-.8 0-.3-.1-.5-.2-.6-.2-.2-.4-.2-.8-.2l-.3-.1c-.1 0-.2 0-.3 0-.1 0-.1-.1-.1-.2 0-.1 0-.2 0-.2.1 0 .2-.1.3-.1h1.2v-.6h-1.3c-.7 0-1 .5-1 .9 0 .9.8.8 1.4.8.2 0 .2.1.3.1 0 0 .1.1.1.2 0 .1-.1.1-.1.2-.1 0-.2 0-.3 0zm-20.3-15.8v10.1l.8-1.9h1.8l.2.5v-.5h2l.5 1 .4-1h6.5c.3 0 .6.1.8.3v-.3h1.8v.3c.3-.2.6-.3 1.1-.3h2.6l.2.5v-.5h1.9l.3.5v-.5h1.9v4h-1.9l-.4-.6v.6h-2.3l-.3-.7h-.6l-.3.6h-1.2c-.4 0-.8-.1-1-.2v.2h-2.9v-.8c0-.2-.1-.2-.1-.2h-.1v1.1h-5.6v-.5l-.2.5h-1.2l-.2-.5v.5h-2.3l-.2-.7h-.6l-.3.7h-1.1v11.8h23.8v-7.1c-.3.1-.6.2-1 .2h-1.7v-.3c-.2.2-.6.3-.9.3h-5.5v-.9c0-.1 0-.1-.1-.1h-.1v1h-1.8v-1.1c-.3.1-.6.2-.9.1h-.2v1h-2.2l-.5-.7-.6.6h-3.6v-3.9h3.7l.5.6.5-.6h2.4c.3 0 .8 0 1 .2v-.2h2.2c.2 0 .6 0 .9.2v-.2h3.2v.2c.2-.1.5-.2.8-.2h1.9v.2c.2-.1.5-.2.9-.2h1.1v-13.1h-23.8zm21.2 15c0 0 0 0 0 0 0 0 0 0 0 0zm2.6-1.9h.1v.5h-.1zm.1 1.9v0c-.1 0-.1 0-.1 0-.2-.2-.4-.3-.8-.3l-.3 0c-.2 0-.2 0-.3 0-.1 0-.2-.1-.2-.2 0-.1.1-.2.1-.2.1-.1.2-.1.3-.1h1.2v-.6h-1.3c-.6 0-.9.5-.9.9 0 .9.8.8 1.4.8.1 0 .2.1.2.1.1 0 .1.1.1.2 0 .1 0 .1-.1.2 0 0-.1 0-.3 0h-1.3v.6h1.3c.5 0 .8-.1.9-.3h.1c.1-.2.1-.3.1-.5 0-.3 0-.4-.1-.6zm-5.3-.8v-.6h-2.2v2.9h2.2v-.6h-1.6v-.6h1.6v-.6h-1.6v-.5m-3.5-5.4h.7v2.8h-.7zm-.4.7c0-.3-.1-.5-.3-.6-.2-.1-.5-.1-.8-.1h-1.6v2.8h.7v-1h.7c.3 0 .4 0 .5.1.1.1.1.4.1.5v.4h.7v-.6c0-.2 0-.3-.1-.5-.1-.1-.2-.2-.3-.2.1-.1.4-.3.4-.8zm-.8.4h0c-.1.1-.2.1-.4.1h-.8v-.6h.8c.1 0 .3 0 .4 0 0 .1.1.2.1.3s0 .2-.1.2zm3.6-.5h.7v-.6h-.7c-.5 0-.8.1-1 .3-.3.3-.4.7-.4 1.1 0 .5.1.8.4 1.1.2.2.6.3 1 .3h.7l.3-.6h1.4l.2.6h1.4v-2.1l1.3 2.1h.9v-2.8h-.7v1.9l-1.1-1.9h-1.1v2.6l-1.1-2.7h-1l-.9 2.3h-.3c-.2 0-.4-.1-.5-.2-.1-.1-.2-.3-.2-.6 0-.3.1-.5.2-.7.1-.1.3-.1.5-.1zm1.7-.1l.5 1.1v0h-1l.5-1.1zm-15.2 1.7l.2.6h1.4v-2.2l1 2.2h.6l.9-2.2 0 2.2h.7v-2.8h-1.1l-.8 1.9-.9-1.9h-1.1v2.7l-1.1-2.7h-1l-1.2 2.8h.7l.3-.6h1.4zm-.7-1.7l.5 1.1-.1 0h-.9l.5-1.1zm10.2 4.3h-2.2l-.8.9-.9-.9h-2.7v2.8h2.7l.9-.9.8.9h1.3v-.9h.8c.6 0 1.2-.2 1.2-.9c0-.8-.6-1-1.1-1zm-4.2 2.3h-1.7v-.6h1.5v-.6h-1.5v-.5h1.7l.7.8-.7.9zm2.6.3l-1-1.2 1-1.1v2.3zm1.6-1.3h-.9v-.7h.9c.2 0 .4.1.4.4 0 .2-.2.3-.4.3zm-1.9-5.5v-.6h-2.3v2.8h2.3v-.6h-1.6v-.5h1.5v-.6h-1.5v-.5',
    color: '#2E77BC',
  },
  jcb: {
    path: 'M13.1 9.9c.9 0 1.7.3 2.3.6v-1.3s-1.3-.3-2.4-.3c-4.2-.2-5.3 1.4-5.3 3.1 0 1.7 1.1 3.3 5.3 3.1 1.1 0 2.4-.3 2.4-.3v-1.3c-.6.3-1.4.6-2.3.6-1.7.2-2.7-.7-2.7-2.1 0-1.4 1-2.3 2.7-2.1m7.6 4.1c0 0-.1 0-.2 0h-1.8v-1.6h1.8c.1 0 .2 0 .2 0a.8056.8056 0 0 1 .7.8c0 .4-.3.7-.7.8zm-2-4.1h1.7c0 0 .1.1.1.1.4 0 .7.3.7.7 0 .4-.3.7-.7.7a1.571 1.571 0 0 1 -.1.1h-1.7v-1.5zm3.5 2v0c.9-.1 1.4-.7 1.4-1.4 0-.9-.7-1.4-1.7-1.5-.1 0-.2 0-.3 0h-5.3v6h5.7c1.2 0 2-.6 2-1.6 0-.8-.8-1.4-1.8-1.5zm-17.8.7c0 .9-.6 1.5-1.7 1.5-.9 0-1.8-.2-2.7-.6v1.3s1.4.3 3.2.3c3 0 3.8-1.1 3.8-2.5v-3.6h-2.6v3.6z',
    color: '#0B4EA2',
  },
};

/** By the card rules' brand id; a brand without a mark (UnionPay) is named in words. */
export const CARD_MARKS: Readonly<Record<string, Mark>> = /* @__PURE__ */ (() => ({
  ...ROUNDED_CARD_MARKS,
  discover: mark(siDiscover),
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
