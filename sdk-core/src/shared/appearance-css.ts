/**
 * What applying a checked appearance needs, without the checker (./appearance.ts): the shapes of its result, its style
 * sheet for one surface, and its refusals in words. The pages of the service's origin check an appearance and apply
 * it; Elements' element, in the merchant page, applies what its card frame accepted (the frame's `look` message) and
 * has no checker of its own.
 */
import type { APPEARANCE_SELECTORS } from '@svc/protocol/light';

export type AppearanceSelector = (typeof APPEARANCE_SELECTORS)[number];

/** One CSS declaration: a property in CSS spelling (`border-color`) and its checked value. */
export type Declaration = [property: string, value: string];

export interface Refusal {
  /** Where in the appearance: `theme`, `variables.colorText`, `rules[".Input"].backgroundImage`. */
  path: string;
  reason: string;
}

export interface CheckedAppearance {
  /** The theme's custom properties with the accepted variables over them (`--svc-color-accent`…), for the root. */
  variables: Declaration[];
  /** The accepted declarations of each selector that has any. */
  rules: Partial<Record<AppearanceSelector, Declaration[]>>;
  refusals: Refusal[];
}

/**
 * The style sheet of a checked appearance for one surface: its variables on `root`, and each rule on the surface's
 * own selector for it (a surface without, say, tabs leaves `.Tab` out). Every value passed the checker, whose
 * character allow-list (protocol's APPEARANCE_CSS_VALUE) keeps a value from closing its declaration or its rule.
 */
export function appearanceCss(checked: CheckedAppearance, root: string, selectors: Partial<Record<AppearanceSelector, string>>): string {
  const block = (declarations: readonly Declaration[]) => declarations.map(([property, value]) => `${property}:${value}`).join(';');
  const rules = Object.entries(checked.rules).flatMap(([selector, declarations]) => {
    const target = selectors[selector as AppearanceSelector];
    return target && declarations ? [`${target}{${block(declarations)}}`] : [];
  });
  return [`${root}{${block(checked.variables)}}`, ...rules].join('\n');
}

/** The `appearance-refused` warning: every refused value and why. */
export const refusalsWarning = (refusals: readonly Refusal[]): string =>
  `These appearance values were refused and are not applied: ${refusals.map(({ path, reason }) => `appearance.${path}: ${reason}`).join('; ')}.`;
