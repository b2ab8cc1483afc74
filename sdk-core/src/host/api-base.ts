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
