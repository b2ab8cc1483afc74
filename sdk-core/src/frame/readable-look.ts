/**
 * An appearance can never hide the card fields (sdk-elements/README.md#appearance): the checker bounds each value
 * (shared/appearance.ts, its lengths clamped whatever they compute to), and this bounds the result, measured on the
 * styles the card form has once it is applied. The typed number and its caret, in every state a rule can style
 * (focused, invalid, both, read-only while paying), the labels and the errors keep at least MIN_CONTRAST against what
 * is behind them (each background of the element and its ancestors, a gradient's colours and an inset shadow's too);
 * where the frame cannot see what is behind (a transparent frame over the merchant's page), their colour keeps at
 * least MIN_ALPHA of opacity. Each field lies inside the frame with room for two characters of its text. An
 * appearance that fails is not applied: its theme is, and the refusal says why.
 */
import { checkAppearance } from '../shared/appearance';
import type { CheckedAppearance } from '../shared/appearance-css';
import { composite, contrastRatio, readColour, type Rgba } from './colour-contrast';

/** WCAG's least contrast for large text and for the parts of a form: what the card fields' text keeps. */
export const MIN_CONTRAST = 3;
/** The least opacity of text over a background the frame cannot see. */
export const MIN_ALPHA = 0.6;
/** The class the `.Input:focus` rule also styles, so that a field's focused look is measured without taking the focus. */
export const FOCUS_PROBE = 'focus-probe';

const COLOUR_CALL = /(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\([^()]*\)/g;

/** Why `colour` would not be read over what is behind `element`, or ''. */
function unreadable(element: Element, colour: string, what: string): string {
  const doc = element.ownerDocument;
  const text = readColour(doc, colour);
  // What may be behind: the element's and its ancestors' backgrounds painted over one another, from the root down.
  let behind: Rgba[] = [[0, 0, 0, 0]];
  const chain: Element[] = [];
  for (let node: Element | null = element; node; node = node.parentElement) chain.unshift(node);
  for (const node of chain) {
    const style = doc.defaultView!.getComputedStyle(node);
    const insets = style.boxShadow.split(/,(?![^()]*\))/).filter((shadow) => shadow.includes('inset'));
    const paints = [...`${style.backgroundImage} ${insets}`.matchAll(COLOUR_CALL)].map(([css]) => readColour(doc, css));
    const fill = readColour(doc, style.backgroundColor);
    behind = behind
      .flatMap((below) => {
        const base = composite(fill, below);
        return [base, ...paints.map((paint) => composite(paint, base))];
      })
      .slice(0, 16);
  }
  for (const backdrop of behind) {
    const ratio = contrastRatio(composite(text, backdrop), backdrop);
    if (backdrop[3] < 0.999 ? text[3] < MIN_ALPHA : ratio < MIN_CONTRAST) {
      return `${what} would be hard to see (${backdrop[3] < 0.999 ? `${Math.round(text[3] * 100)}% opaque, at least ${MIN_ALPHA * 100}%` : `${ratio.toFixed(1)}:1 contrast, at least ${MIN_CONTRAST}:1`})`;
    }
  }
  return '';
}

/** What hides the card fields of `doc` as it is styled now, or ''. */
export function hidingReason(doc: Document): string {
  const view = doc.defaultView!;
  const input = doc.getElementById('number') as HTMLInputElement | null;
  if (!input) return '';
  for (const part of [doc.querySelector('label[for="number"]'), doc.getElementById('number-error')]) {
    const reason = part ? unreadable(part, view.getComputedStyle(part).color, part.localName === 'label' ? 'a label' : 'an error') : '';
    if (reason) return reason;
  }
  const { className, readOnly } = input;
  const invalid = input.getAttribute('aria-invalid') ?? 'false';
  // The field as it is, focused, invalid, focused and invalid, read-only (while paying).
  for (const state of ['', 'f', 'i', 'fi', 'r']) {
    input.classList.toggle(FOCUS_PROBE, state.includes('f'));
    input.setAttribute('aria-invalid', state.includes('i') ? 'true' : invalid);
    input.readOnly = state === 'r' || readOnly;
    const style = view.getComputedStyle(input);
    const reason =
      unreadable(input, style.color, 'the typed number') || unreadable(input, style.caretColor === 'auto' ? style.color : style.caretColor, 'the caret');
    input.className = className;
    input.setAttribute('aria-invalid', invalid);
    input.readOnly = readOnly;
    if (reason) return reason;
  }
  for (const id of ['number', 'expiry', 'cvc']) {
    const field = doc.getElementById(id)!;
    // Not shown (the iframe widget paying by wallet): nothing to see.
    if (!field.getClientRects().length) continue;
    const box = field.getBoundingClientRect();
    const style = view.getComputedStyle(field);
    const room = field.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    if (box.left < 0 || box.right > doc.documentElement.clientWidth + 0.5 || room < 2 * Number.parseFloat(style.fontSize)) {
      return `the field ${id} would not fit in the frame with room for its text`;
    }
  }
  return '';
}

/**
 * Applies `appearance` (anything: it is checked) with `render` (which puts a checked appearance's style sheet in place)
 * and returns what was applied: the checked appearance, or its theme alone when the result would hide the card fields.
 */
export function applyReadable(doc: Document, appearance: unknown, render: (checked: CheckedAppearance) => void): CheckedAppearance {
  const checked = checkAppearance(appearance);
  render(checked);
  const reason = hidingReason(doc);
  if (!reason) return checked;
  const theme = checkAppearance({ theme: (appearance as { theme?: unknown } | null)?.theme });
  const applied = { ...theme, refusals: [...checked.refusals, { path: '', reason: `not applied: ${reason}` }] };
  render(applied);
  return applied;
}
