/**
 * The appearance checker's sizes (appearance.ts): what kind of value a property takes, each kind's bounds, and the
 * bounds made to hold whatever a value computes to. A number checked alone says little: `calc(32px / 0.02)` is
 * 1,600 px, `2em` is 80 px in a 40 px font. So every length of an accepted value is also wrapped in `clamp()` with its
 * kind's bounds, and the browser keeps the result within them.
 */

/** What a value of a property may be. */
export type Kind =
  | 'spacingUnit'
  | 'color'
  | 'textColor'
  | 'background'
  | 'border'
  | 'radius'
  | 'shadow'
  | 'fontFamily'
  | 'fontSize'
  | 'fontWeight'
  | 'keyword'
  | 'spacing'
  | 'lineHeight'
  | 'letterSpacing'
  | 'outline'
  | 'outlineOffset'
  | 'transition';

export class Refused extends Error {}
export const refuse = (reason: string): never => {
  throw new Refused(reason);
};

/** The largest size each kind allows, in px (em and rem count 16 px, `%` is refused where it could be unbounded). */
const MAX_PX: Partial<Record<Kind, number>> = {
  spacingUnit: 8,
  border: 8,
  shadow: 24,
  spacing: 32,
  outline: 8,
  outlineOffset: 8,
  letterSpacing: 4,
  radius: 10_000,
  lineHeight: 64,
  fontSize: 40,
};
/** The smallest font size, in px: text under it is not read. */
const MIN_FONT_PX = 10;

const NEGATIVE_ALLOWED: readonly Kind[] = ['letterSpacing', 'shadow', 'outlineOffset', 'transition'];
const COLOR_CALL = /(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color|color-mix)\([^()]*\)/gi;
const NUMBER_WITH_UNIT = /(-?)(\d*\.?\d+)([a-z%]*)/gi;

/** Sizes within the kind's bounds; no negative size where one could move a field out of sight. */
export function checkSizes(value: string, kind: Kind): void {
  const max = MAX_PX[kind];
  const sizes = value
    .replace(COLOR_CALL, ' ')
    .replace(/#[0-9a-f]+/gi, ' ')
    .replace(/var\([^)]*\)/gi, ' ');
  // A minus that is not inside a name (`-apple-system`, `--colorPrimary`): a negative number or a subtraction.
  if (!NEGATIVE_ALLOWED.includes(kind) && /(?:^|[^A-Za-z0-9_-])-(?![A-Za-z-])/.test(sizes)) refuse('no negative size here');
  if (max === undefined) return;
  for (const [, , digits, unit] of sizes.matchAll(NUMBER_WITH_UNIT)) {
    const amount = Number(digits);
    const lower = unit!.toLowerCase();
    if (amount === 0) continue;
    const px = lower === 'px' ? amount : lower === 'em' || lower === 'rem' ? amount * 16 : null;
    if (px !== null) {
      if (px > max) refuse(`at most ${max}px here`);
      continue;
    }
    if (lower === '%' && (kind === 'radius' || kind === 'fontSize')) continue;
    if (lower === '' && (kind === 'lineHeight' || kind === 'shadow' || (amount <= 4 && /calc\(/i.test(value)))) continue;
    if (['s', 'ms'].includes(lower) && kind === 'transition') continue;
    refuse(`no unit "${unit}" here`);
  }
}

export function checkFontSize(value: string): void {
  const match = /^(\d*\.?\d+)(px|rem|em|%)$/.exec(value.trim());
  if (!match) return refuse('a font size is px, rem, em or %');
  const amount = Number(match[1]);
  const px = match[2] === 'px' ? amount : match[2] === '%' ? (amount * 16) / 100 : amount * 16;
  if (px < MIN_FONT_PX || px > 40) refuse('a font size is 10px to 40px');
}

/** The appearance variables whose values are lengths, as the custom properties they set. */
const LENGTH_VARIABLES = /^var\(--svc-(?:spacing-unit|font-size|radius)\)$/i;
const LENGTH = /^-?\d*\.?\d+[a-z%]+$/i;
const MATH = /^(?:calc|min|max|clamp)\(/i;

/**
 * `value` (checked, its variables resolved) with every length in it (a number with a unit, a maths function, a length
 * variable) wrapped in `clamp()` with the kind's bounds: whatever it computes to in the page, it stays within them.
 */
export function boundLengths(value: string, kind: Kind): string {
  const max = MAX_PX[kind];
  if (max === undefined) return value;
  const min = kind === 'fontSize' ? MIN_FONT_PX : NEGATIVE_ALLOWED.includes(kind) ? -max : 0;
  const bound = (term: string): string =>
    (MATH.test(term) || LENGTH_VARIABLES.test(term) || LENGTH.test(term)) && Number.parseFloat(term) !== 0 ? `clamp(${min}px, ${term}, ${max}px)` : term;
  // The value's terms at its top level (a function call is one term), with the spaces and commas between them.
  let bounded = '';
  let term = '';
  let depth = 0;
  for (const character of `${value} `) {
    if (character === '(') depth += 1;
    if (character === ')') depth -= 1;
    if (depth === 0 && (character === ' ' || character === ',')) {
      bounded += bound(term) + character;
      term = '';
    } else term += character;
  }
  return bounded.slice(0, -1);
}
