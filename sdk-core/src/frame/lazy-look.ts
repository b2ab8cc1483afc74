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

/**
 * Adds the card form's style sheets to `doc`, with the default look, and returns the function that applies an
 * appearance in place of the last one. Without an appearance (undefined) the default look is applied at once; one that
 * is given is applied once the checker has loaded, unless another was asked for meanwhile (the last one asked for is
 * the one applied). Its promise rejects when the checker could not be loaded (nothing of that appearance is applied).
 * The first time, the page stays hidden until that appearance is applied or cannot be (then with the default look).
 */
export function applyCardFormStylesLazily(doc: Document, selectors = CARD_FORM_SELECTORS, root = ':root'): (appearance: unknown) => Promise<void> {
  const render = addCardFormStyles(doc, selectors, root);
  const defaultLook: CheckedAppearance = { variables: themeVariables(DEFAULT_THEME), rules: {}, refusals: [] };
  let asked = 0;
  let loaded = false;
  // While the first appearance waits for the checker, the page is laid out but not shown: the shopper never sees the
  // default look turn into the merchant's. It is shown once the last look asked for is applied, or cannot be.
  const page = doc.documentElement;
  const show = (): void => void page.style.removeProperty('visibility');
  const apply = async (appearance: unknown): Promise<void> => {
    const request = ++asked;
    if (appearance === undefined) {
      render(defaultLook);
      return show();
    }
    if (!loaded) page.style.visibility = 'hidden';
    try {
      const { applyReadable } = await loadAppearanceCheck(doc);
      loaded = true;
      if (request === asked) applyReadable(doc, appearance, render);
    } finally {
      if (request === asked) show();
    }
  };
  void apply(undefined);
  return apply;
}
