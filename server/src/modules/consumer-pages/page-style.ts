import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../env';

/** Where server/build-pages.mjs writes the pages' browser files, from the repository root. */
export const PAGES_DIST = 'server/dist/pages';

/** The pages' built style sheet, as each page carries it inline, and the CSP source that allows exactly it. */
export interface InlineStyle {
  readonly css: string;
  /** `'sha256-…'`, for `style-src`. */
  readonly source: string;
}

let kept: { mtimeMs: number; size: number; style: InlineStyle | null } | null = null;

/**
 * The built `pages.css` (3.5 KB, 1.3 KB gzip), read once and again only when a rebuild changed it (`pnpm dev`). Every
 * consumer page carries it in a `<style>` allowed by its hash, so that the page's first paint waits for no request:
 * the style sheet was the one render-blocking request of the hosted page, asked for only once its HTML had arrived.
 * Null when the pages are not built (the page then links `/pay-assets/pages.css`, which says so) or when the built
 * file could end the `<style>` element early.
 */
export function inlineStyle(root = REPO_ROOT): InlineStyle | null {
  const file = path.join(root, PAGES_DIST, 'pages.css');
  let info;
  try {
    info = statSync(file);
  } catch {
    return null;
  }
  if (kept && kept.mtimeMs === info.mtimeMs && kept.size === info.size) return kept.style;
  const css = readFileSync(file, 'utf8');
  const style = /<\/style/i.test(css) ? null : { css, source: `'sha256-${createHash('sha256').update(css).digest('base64')}'` };
  kept = { mtimeMs: info.mtimeMs, size: info.size, style };
  return style;
}
