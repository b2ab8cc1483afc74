/** Whether `value` is a plain browser origin: http(s), a host name or IPv4 address, a port; nothing a CSP would read otherwise. */
export declare function isPlainOrigin(value: unknown): value is string;
/** The card frame's Content-Security-Policy, with `frame-ancestors <frameAncestor>` first unless null; throws unless it is a plain origin. */
export declare function cardFrameCsp(frameAncestor: string | null): string;
/** The iframe SDK's widget page's policy: the card frame's, with `frame-src 'self' https:` (the bank's 3-D Secure page in its dialog, and the processor's it leads to). */
export declare function widgetPageCsp(frameAncestor: string | null): string;
/** `frame-ancestors <origin>`; throws unless `origin` is a plain origin. */
export declare function frameAncestorsDirective(origin: string): string;
/** The policy of the refusal page the frame URL answers for an origin the client ID does not allow. */
export declare const CARD_FRAME_REFUSED_CSP: string;
