// Plain JavaScript with a declaration beside it (card-frame-csp.d.ts): test-runner configs load it without a build.

/**
 * A browser origin as a CSP source names it, and as the browser writes it in `Origin`: `http` or `https`, a host name
 * of letters, digits and hyphens (an international name in its punycode form) or an IPv4 address, and a port. No
 * wildcard, quote, comma, semicolon or space, which would make frame-ancestors say something else; no IPv6 literal,
 * which a CSP source cannot write.
 */
const PLAIN_ORIGIN = /^https?:\/\/[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?$/;

/**
 * Whether `value` is exactly such an origin (lower case, no path, no trailing slash).
 * @param {unknown} value
 * @returns {value is string}
 */
export function isPlainOrigin(value) {
  return typeof value === 'string' && PLAIN_ORIGIN.test(value);
}

/**
 * The card frame's Content-Security-Policy: the one place it is spelled. The frame styles itself with a constructed
 * style sheet and shows no images, so nothing inline and nothing from elsewhere; it talks only to the service.
 * `frameAncestor` is the one merchant origin allowed to frame it (checked against the client ID first); null leaves
 * frame-ancestors out. Anything but a plain origin is refused, whatever was stored: it would reach the header as
 * written.
 * @param {string | null} frameAncestor
 * @returns {string}
 */
export function cardFrameCsp(frameAncestor) {
  const directives = ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "base-uri 'none'", "form-action 'none'"];
  return (frameAncestor === null ? directives : [frameAncestorsDirective(frameAncestor), ...directives]).join('; ');
}

/**
 * `frame-ancestors <origin>`: the one origin that may frame a page, refused unless it is a plain origin.
 * @param {string} origin
 * @returns {string}
 */
export function frameAncestorsDirective(origin) {
  if (!isPlainOrigin(origin)) throw new TypeError(`${JSON.stringify(origin)} is not an origin (scheme, host name and port): it cannot go into frame-ancestors`);
  return `frame-ancestors ${origin}`;
}

/**
 * The iframe SDK's widget page's Content-Security-Policy: the card frame's, and it may frame the bank's 3-D Secure
 * page in its dialog: the service's own page, which sends a processor's authentication on to the processor's page and
 * on from there to the card issuer's (Stripe's, Adyen's, a bank's: origins nobody can list ahead), so any https page.
 * `frame-src` is checked at every navigation of that frame, redirects included: the processor's page redirecting it to
 * the issuer's access control server (ACS), on whatever https origin the issuer has, is why `https:` and not a list.
 * @param {string | null} frameAncestor
 * @returns {string}
 */
export function widgetPageCsp(frameAncestor) {
  return `${cardFrameCsp(frameAncestor)}; frame-src 'self' https:`;
}

/** What the frame URL answers when the origin is not allowed for the client ID: framed anywhere, it only says so. */
export const CARD_FRAME_REFUSED_CSP = "default-src 'none'; frame-ancestors *";
