/**
 * The card form's look with the appearance checker (shared/appearance.ts, and the measuring of its result:
 * readable-look.ts) in a lazy script of its own (shared/lazy-script.ts), loaded from the page's own folder the first
 * time an appearance is given: the iframe SDK's widget page, where most merchants give none, applies the default theme
 * without it. Everything else is applyCardFormStyles' (styles.ts): whatever the merchant page sends is checked, then
 * measured, before any of it is applied, in place and without touching the form. Until the checker has loaded the look
 * stays as it is (the default theme, the first time); when it cannot be loaded nothing unchecked is ever applied, and
 * the next appearance tries again.
 */
import type { CheckedAppearance } from '../shared/appearance-css';
import { DEFAULT_THEME, themeVariables } from '../shared/appearance-themes';
import { lazyScript } from '../shared/lazy-script';
import type { AppearanceCheck } from './appearance-check';
import { addCardFormStyles, CARD_FORM_SELECTORS } from './styles';

/** The appearance checker and its measuring, loaded once per page (a failed load is tried again on the next call). */
export const loadAppearanceCheck = (doc: Document): Promise<AppearanceCheck> =>
  lazyScript<AppearanceCheck>('appearance-check', doc.baseURI, () => import('./appearance-check').then((module) => module.APPEARANCE_CHECK));

/** The longest the page stays hidden waiting for the checker: past it, it shows the default look until the checker answers. */
export const HIDDEN_AT_MOST_MS = 1500;

/**
 * Adds the card form's style sheets to `doc`, with the default look, and returns the function that applies an
 * appearance in place of the last one. Without an appearance (undefined) the default look is applied at once; one that
 * is given is applied once the checker has loaded, unless another was asked for meanwhile (the last one asked for is
 * the one applied). Its promise rejects when the checker could not be loaded (nothing of that appearance is applied).
 *
 * When the very first look asked for is an appearance, the page is laid out but hidden until it is applied, so the
 * shopper never sees the default look turn into the merchant's; it is shown when that look is applied or cannot be,
 * when another look is asked for, and after HIDDEN_AT_MOST_MS whatever the network does. A page once shown is never
 * hidden again: a later appearance changes the look in place.
 */
export function applyCardFormStylesLazily(
  doc: Document,
  selectors = CARD_FORM_SELECTORS,
  root = ':root',
  { hiddenAtMostMs = HIDDEN_AT_MOST_MS, load = loadAppearanceCheck }: { hiddenAtMostMs?: number; load?: (doc: Document) => Promise<AppearanceCheck> } = {},
): (appearance: unknown) => Promise<void> {
  const render = addCardFormStyles(doc, selectors, root);
  const defaultLook: CheckedAppearance = { variables: themeVariables(DEFAULT_THEME), rules: {}, refusals: [] };
  render(defaultLook);
  let asked = 0;
  const page = doc.documentElement;
  let hiddenUntil: ReturnType<typeof setTimeout> | undefined;
  const show = (): void => {
    clearTimeout(hiddenUntil);
    page.style.removeProperty('visibility');
  };
  return async (appearance: unknown): Promise<void> => {
    const request = ++asked;
    if (appearance === undefined) {
      render(defaultLook);
      return show();
    }
    if (request === 1) {
      page.style.visibility = 'hidden';
      hiddenUntil = setTimeout(show, hiddenAtMostMs);
    }
    try {
      const { applyReadable } = await load(doc);
      if (request === asked) applyReadable(doc, appearance, render);
    } finally {
      show();
    }
  };
}
