/**
 * `window.ServiceFrontEndSDK` of the iframe SDK 1.0.9: sdk-core's facade in the merchant page (the same global as
 * Elements 1.1.1), its engine in the widget page, joined by the iframe link (iframe-link.ts).
 */
import { SDK_VERSIONS } from '@svc/protocol/light';
import { createServiceFrontEndSDK, type ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { DEFAULT_TIMEOUTS, iframeLink, type IframeTimeouts } from './iframe-link';

export function createIframeSdk(win: Window, apiBase: string, timeouts: IframeTimeouts = DEFAULT_TIMEOUTS): ServiceFrontEndSDK {
  return createServiceFrontEndSDK(win.document, { version: SDK_VERSIONS.iframe, connect: (emit) => iframeLink(win, apiBase, emit, timeouts) });
}
