// Plain JavaScript with a declaration beside it (card-frame-csp.d.ts): test-runner configs load it without a build.

/**
 * The card frame's Content-Security-Policy: the one place it is spelled. The frame styles itself with a constructed
 * style sheet and shows no images, so nothing inline and nothing from elsewhere; it talks only to the service.
 * `frameAncestor` is the one merchant origin allowed to frame it (checked against the client ID first); null leaves
 * frame-ancestors out.
 * @param {string | null} frameAncestor
 * @returns {string}
 */
export function cardFrameCsp(frameAncestor) {
  const directives = ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "base-uri 'none'", "form-action 'none'"];
  return (frameAncestor === null ? directives : [`frame-ancestors ${frameAncestor}`, ...directives]).join('; ');
}

/** What the frame URL answers when the origin is not allowed for the client ID: framed anywhere, it only says so. */
export const CARD_FRAME_REFUSED_CSP = "default-src 'none'; frame-ancestors *";
