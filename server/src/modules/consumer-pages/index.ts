/** The consumer-pages module's public surface: what other modules and the wiring may use. */
export { PAGE_ASSETS, escapeHtml, notFoundPage, renderPage, sendPage } from './page-shell';
