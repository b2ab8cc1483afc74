import type { Response } from 'express';
import { frameAncestorsDirective, LANGUAGES } from '@svc/protocol';
import { directionOf, type Language } from '@svc/sdk-core/i18n';
import { escapeHtml } from '../../html-escape';
import { LANGUAGE_NAMES, translator } from '../../i18n';
import { inlineStyle } from './page-style';

export { escapeHtml };

/** The browser files of the consumer's pages, built by server/build-pages.mjs and served by consumer-assets.routes.ts. */
export const PAGE_ASSETS = {
  style: 'pages.css',
  payScript: 'pay.js',
  stickerScript: 'sticker.js',
  terminalScript: 'terminal.js',
  bankScript: 'bank.js',
} as const;
export type PageAsset = (typeof PAGE_ASSETS)[keyof typeof PAGE_ASSETS];
export const PAGE_ASSETS_PATH = '/pay-assets';

export interface PageOptions {
  title: string;
  /** The page's language (`<html lang dir>`, the switch); `en` when left out. */
  language?: Language;
  /** The page's own script, if it has one (never inline: the CSP forbids it; the style sheet is inline, by its hash). */
  script?: PageAsset;
  /** Attributes of <main>, e.g. the data the script reads. Values are escaped here. */
  mainData?: Record<string, string | number | null>;
  main: string;
}

/**
 * A consumer page: the service's style sheet (inline, allowed by its hash: page-style.ts), at most one script of its
 * own, no other inline style or script, nothing from elsewhere.
 */
export function renderPage({ title, language = 'en', script, mainData = {}, main }: PageOptions): string {
  const data = Object.entries(mainData)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => ` data-${name}="${escapeHtml(String(value))}"`)
    .join('');
  return `<!doctype html>
<html lang="${language}" dir="${directionOf(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
${styleElement()}
${script ? `<script src="${PAGE_ASSETS_PATH}/${script}" defer></script>\n` : ''}</head>
<body>
${languageSwitch(language)}
<main id="page"${data}>
${main}
</main>
</body>
</html>
`;
}

/** The style sheet inline when built (no request before the first paint), else linked. */
function styleElement(): string {
  const style = inlineStyle();
  return style ? `<style>${style.css}</style>` : `<link rel="stylesheet" href="${PAGE_ASSETS_PATH}/${PAGE_ASSETS.style}">`;
}

/** Links to the same page in each language (`?lang=`), each named in its own language; the current one marked. */
function languageSwitch(current: Language): string {
  const links = LANGUAGES.map((language) => {
    const here = language === current ? ' aria-current="true"' : '';
    return `<li><a href="?lang=${language}" lang="${language}" hreflang="${language}"${here}>${escapeHtml(LANGUAGE_NAMES[language])}</a></li>`;
  });
  return `<nav class="languages" aria-label="${escapeHtml(translator(current)('page.language'))}"><ul>${links.join('')}</ul></nav>`;
}

/**
 * Headers of every consumer page: its own script, style (the inline one by its hash) and images only, talking only to this service (its
 * websocket included), never framed, never cached (the state changes), never indexed, no referrer (the link id is
 * the only credential, and it is in the URL).
 */
export function consumerPageHeaders(publicBaseUrl: string, frameAncestor: string | null = null): Record<string, string> {
  const ws = publicBaseUrl.replace(/^http/, 'ws');
  const style = inlineStyle();
  const headers: Record<string, string> = {
    'Content-Security-Policy': [
      "default-src 'none'",
      "script-src 'self'",
      ['style-src', "'self'", ...(style ? [style.source] : [])].join(' '),
      "img-src 'self'",
      `connect-src 'self' ${ws}`,
      // The merchant page, and this service's own pages: the iframe SDK's widget page frames the bank's page in its dialog.
      frameAncestor === null ? "frame-ancestors 'none'" : `${frameAncestorsDirective(frameAncestor)} 'self'`,
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; '),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Robots-Tag': 'noindex',
    'X-Frame-Options': 'DENY',
  };
  // A page a widget shows in its dialog (the bank's page of a session's payment) may be framed by that merchant page alone.
  if (frameAncestor !== null) delete headers['X-Frame-Options'];
  return headers;
}

/** Sends a consumer page; `frameAncestor`, the one merchant origin allowed to frame it (none when null). */
export function sendPage(res: Response, publicBaseUrl: string, status: number, html: string, frameAncestor: string | null = null): void {
  res.set(consumerPageHeaders(publicBaseUrl, frameAncestor));
  res.status(status).type('html').send(html);
}

/** The 404 page of an unknown link or sticker: HTML, as the consumer opened it in a browser. */
export function notFoundPage(what: 'payment link' | 'sticker' | 'authentication', language: Language = 'en'): string {
  const t = translator(language);
  const heading = t(what === 'payment link' ? 'page.linkNotFound' : what === 'sticker' ? 'page.stickerNotFound' : 'page.authentication.notFound');
  return renderPage({
    title: heading,
    language,
    main: `<h1>${escapeHtml(heading)}</h1>\n<p>${escapeHtml(t('page.notFound.text'))}</p>`,
  });
}
