/** The card frame's Content-Security-Policy, with `frame-ancestors <frameAncestor>` first unless null. */
export declare function cardFrameCsp(frameAncestor: string | null): string;
/** The policy of the refusal page the frame URL answers for an origin the client ID does not allow. */
export declare const CARD_FRAME_REFUSED_CSP: string;
