import { issueWarning } from '../shared/warnings';

/**
 * Where the payment service is: the origin the SDK script was loaded from (`document.currentScript` while it runs),
 * or the script tag's `data-api-base` attribute when set (tests, proxies).
 */
export function detectApiBase(script: Element | null, pageUrl: string): { apiBase: string; guessed: boolean } {
  const override = script?.getAttribute('data-api-base');
  if (override) return { apiBase: new URL(override, pageUrl).href.replace(/\/+$/, ''), guessed: false };
  const src = script?.getAttribute('src');
  if (src) return { apiBase: new URL(src, pageUrl).origin, guessed: false };
  return { apiBase: new URL(pageUrl).origin, guessed: true };
}

/**
 * The payment service's base URL for the SDK script running now (every SDK's entry calls it first). When the script
 * cannot tell where it was loaded from, it warns once (`api-base-guessed`) and uses the page's origin.
 */
export function apiBaseOfRunningScript(sdkName: string): string {
  const { apiBase, guessed } = detectApiBase(document.currentScript, location.href);
  if (guessed) {
    issueWarning(
      'api-base-guessed',
      `The ${sdkName} could not tell where it was loaded from; it uses ${apiBase}. Load it with a <script src> tag from the payment service.`,
    );
  }
  return apiBase;
}

/**
 * Installs this copy of an SDK (`install`) unless another copy is on the page already (`alreadyLoaded`: what the first
 * copy left, e.g. the global or the custom element). A second copy warns once (`sdk-loaded-twice`) and installs
 * nothing: the first stays in use.
 */
export function installUnlessLoaded(alreadyLoaded: boolean, sdkName: string, install: () => void): void {
  if (alreadyLoaded) {
    issueWarning('sdk-loaded-twice', `The ${sdkName} script is on the page twice; the first copy stays in use. Remove the second <script>.`);
    return;
  }
  install();
}
