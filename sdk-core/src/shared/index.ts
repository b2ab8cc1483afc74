/**
 * `@svc/sdk-core/shared`: what both sides use, the merchant page's code and the frames' code: the typed postMessage
 * channel, the SDK errors (problem+json → SDK error codes), diagnostics (dev warnings, debug log, visualizer), and
 * applying a checked appearance (the checker itself is `@svc/sdk-core/frame`'s: it runs on the service's origin).
 */
export {
  frameEnd,
  hostEnd,
  postMessageChannel,
  randomInstanceId,
  type ChannelEnds,
  type ChannelOptions,
  type MessageBody,
  type PostMessageChannel,
} from './channel';
export { postJson, REQUEST_TIMEOUT_MS, type ApiResult, type PostJsonOptions } from './post-json';
export { networkError, paymentError, sessionError, SdkErrorException, transactionError } from './sdk-errors';
export { debugLog, issueWarning, resetWarnings, type WarningCode } from './warnings';
export { createVisualizer, type Visualizer } from './visualizer';
export { LiveUpdates, type LiveUpdatesOptions, type TransactionUpdatedNotice } from './live-updates';
export { appearanceCss, refusalsWarning, type AppearanceSelector, type CheckedAppearance, type Declaration, type Refusal } from './appearance-css';
export { CARD_MARKS, createMark, WALLET_MARKS, type Mark } from './marks';
export { deliverLazyScript, lazyScript } from './lazy-script';
