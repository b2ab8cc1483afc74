/**
 * Dev-mode warnings with stable codes, in the manner of Lit's `issueWarning`: one console warning per code per page,
 * naming the fix. Codes are the SDK error codes plus a few integration hints listed in README ("Warnings").
 */
import type { SDK_PAGE_WARNINGS, SdkErrorCode } from '@svc/protocol';

/** The error codes, the integration hints the SDK's core sends to the page (protocol), and the loaders' own. */
export type WarningCode =
  SdkErrorCode | (typeof SDK_PAGE_WARNINGS)[number] | 'sdk-loaded-twice' | 'api-base-guessed' | 'sdk-deprecated' | 'locale-unsupported' | 'locale-unavailable';

const issued = new Set<string>();

export function issueWarning(code: WarningCode, message: string): void {
  if (issued.has(code)) return;
  issued.add(code);
  console.warn(`[ServiceFrontEndSDK] ${code}: ${message} (see README, "Warnings")`);
}

/** For tests: forget which warnings were printed. */
export function resetWarnings(): void {
  issued.clear();
}

/** Debug log line; the callers pass only non-sensitive details (the host never sees card data). */
export function debugLog(scope: string, event: string, detail?: unknown): void {
  console.debug(`[${scope}] ${event}`, ...(detail === undefined ? [] : [detail]));
}
