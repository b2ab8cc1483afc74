/**
 * `@svc/protocol/light`: the part of the contract the browser bundles need, without zod (about 32 KB gzip even
 * tree-shaken; importing the package index evaluates every schema). The constants lists, hand-written validators that
 * mirror the zod schemas (light.test.ts checks each against its original), and the problem+json reader. The files
 * here import only each other, `../constants`, `../endpoint-paths` and `../money` (plain functions, no schema); the bundles import protocol *types* from `@svc/protocol`.
 */
export * from '../constants';
export { parseWith, WireIssue, type Infer, type Parsed, type Validator } from './schema';
export { AppearanceWire, BillingAddressWire, Cents, Currency, InstanceId, SdkConfigWire, SdkPayOptionsWire, SdkUpdateWire } from './sdk';
export { FrameToHostMessageWire, HostToFrameMessageWire } from './frame-messages';
export { RequiresActionWire, SdkErrorWire, SdkSessionWire } from './session';
export { ExpressPayDataWire, ExpressPaymentAnswerWire, PartyInformationWire } from './express';
export { BrowserTransactionWire, ProductWire, ThreeDSecureWire, TransactionWire } from './transaction';
export { AuthenticationOutcomeWire } from './authentication';
export { BrowserTransactionUpdatedWire, PaymentLinkStateWire, StickerNextWire, TerminalCurrentWire, TransactionUpdatedNoticeWire } from './channels';
export { LoaderToWidgetMessageWire } from './loader-messages';
export { WidgetToLoaderMessageWire } from './widget-messages';
export { readProblem, type ProblemInfo } from './problem';
export { centsToMajor, majorToCents } from '../money';
export * from '../endpoint-paths';
