import { directionOf, type Language } from '@svc/sdk-core/i18n';
import { escapeHtml } from '../../html-escape';
import { translator } from '../../i18n';

/** Why the iframe SDK's widget page was refused, which its script reports to the merchant's `error` callback. */
export type WidgetRefusalCode = 'client_id_unknown' | 'origin_not_allowed';

/**
 * The page a refused frame shows instead of the card form (the card frame's, or the iframe SDK's widget page's) in
 * the shopper's language, with its `lang` and `dir`: no form, only that this payment form cannot be shown here. The
 * widget page's refusal also names the code and loads the widget script, which tells the loader why (its one
 * postMessage target is the origin the page was asked for); the card frame's loads nothing (its CSP allows nothing).
 */
export function frameRefusalPage(language: Language, widget?: WidgetRefusalCode): string {
  const t = translator(language);
  const head = widget ? `<meta name="svc-widget-refusal" content="${widget}">` : '';
  const script = widget ? '<script src="widget.js" defer></script>' : '';
  return (
    `<!doctype html><html lang="${language}" dir="${directionOf(language)}"><head><meta charset="utf-8">${head}` +
    `<title>${escapeHtml(t('page.frameRefused'))}</title>${script}</head>` +
    `<body><main><p>${escapeHtml(t('page.frameRefused.text'))}</p></main></body></html>`
  );
}
