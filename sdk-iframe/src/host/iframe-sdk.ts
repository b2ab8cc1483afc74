/**
 * `window.ServiceFrontEndSDK` of the iframe SDK 1.0.9: sdk-core's facade in the merchant page (the same global as
 * Elements 1.1.1), its core in the widget page, joined by the iframe link (iframe-link.ts).
 */
import { SDK_VERSIONS } from '@svc/protocol/light';
import { createServiceFrontEndSDK, type ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { issueWarning } from '@svc/sdk-core/shared';
import { DEFAULT_TIMEOUTS, IframeLink, type IframeTimeouts } from './iframe-link';

export function createIframeSdk(win: Window, apiBase: string, timeouts: IframeTimeouts = DEFAULT_TIMEOUTS): ServiceFrontEndSDK {
  return createServiceFrontEndSDK(win.document, { version: SDK_VERSIONS.iframe, connect: (emit) => new IframeLink(win, apiBase, emit, timeouts) });
}

/** Printed once per page, by the copy of the script that installs the global. */
export function warnDeprecated(apiBase: string): void {
  issueWarning(
    'sdk-deprecated',
    `The iframe SDK ${SDK_VERSIONS.iframe} is deprecated; Elements ${SDK_VERSIONS.elements} replaces it with the same ServiceFrontEndSDK calls. ` +
      `Load ${apiBase}/sdk/elements/${SDK_VERSIONS.elements}/sdk.js instead of ${apiBase}/sdk/iframe/${SDK_VERSIONS.iframe}/sdk.js (with its integrity from ${apiBase}/sdk/manifest.json); nothing else changes.`,
  );
}
