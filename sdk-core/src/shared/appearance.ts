/**
 * The appearance checker (sdk-elements/README.md#appearance): what of a merchant's `appearance` a widget or the card
 * frame may apply. A pure function, run only on the service's origin, where the look is applied (the card frame and
 * the iframe widget check what they are sent themselves: the merchant page is not trusted; Elements' element applies
 * what its card frame accepted), returning the accepted declarations and the refusals.
 *
 * Everything is an allow-list. A rule's property must be one of the colours, backgrounds, borders, radii, shadows,
 * fonts, spacing, outlines and transitions below (never display, position, size, opacity, content…); a value must be
 * a short string of plain CSS characters (no backslash escape, no `;{}@!<>:`, no comment), whose every function is a
 * colour, maths or gradient function (no `url(`, `image-set(`, `expression(`, `attr(`…), whose `var()` names one of the
 * appearance variables (no fallback, never inside a variable: no chains), and whose sizes stay within bounds (no
 * negative margin, no text too small to read, no transparent text), each length clamped to them whatever it computes
 * to (appearance-sizes.ts). So an appearance can never make a page load anything; that it never hides a field is
 * measured on the result where it is applied (frame/readable-look.ts). What is refused is left out and named in
 * `refusals`.
 */
import { APPEARANCE_CSS_VALUE, APPEARANCE_SELECTORS, APPEARANCE_THEMES, APPEARANCE_VARIABLES } from '@svc/protocol/light';
import type { AppearanceSelector, CheckedAppearance, Declaration, Refusal } from './appearance-css';
import { boundLengths, checkFontSize, checkSizes, refuse, Refused, type Kind } from './appearance-sizes';
import { DEFAULT_THEME, THEMES, themeVariables, VARIABLE_PROPERTIES, type AppearanceTheme, type AppearanceVariable, type Theme } from './appearance-themes';

export { THEMES, VARIABLE_PROPERTIES, type AppearanceTheme, type AppearanceVariable } from './appearance-themes';

const SIDES = ['Top', 'Right', 'Bottom', 'Left', 'BlockStart', 'BlockEnd', 'InlineStart', 'InlineEnd'];
const CORNERS = ['TopLeft', 'TopRight', 'BottomLeft', 'BottomRight', 'StartStart', 'StartEnd', 'EndStart', 'EndEnd'];

/** The properties a rule may set (camelCase, as the CSSOM and Stripe's Appearance API name them), with their kind. */
const PROPERTIES: ReadonlyMap<string, Kind> = new Map<string, Kind>([
  ['color', 'textColor'],
  ['backgroundColor', 'color'],
  ['background', 'background'],
  ['backgroundImage', 'background'],
  ['borderColor', 'color'],
  ['outlineColor', 'color'],
  ['caretColor', 'color'],
  ['textDecorationColor', 'color'],
  ['border', 'border'],
  ['borderWidth', 'border'],
  ['borderStyle', 'keyword'],
  ['borderBlock', 'border'],
  ['borderInline', 'border'],
  ...SIDES.flatMap((side): [string, Kind][] => [
    [`border${side}`, 'border'],
    [`border${side}Color`, 'color'],
    [`border${side}Width`, 'border'],
    [`border${side}Style`, 'keyword'],
    [`padding${side}`, 'spacing'],
    [`margin${side}`, 'spacing'],
  ]),
  ['borderRadius', 'radius'],
  ...CORNERS.map((corner): [string, Kind] => [`border${corner}Radius`, 'radius']),
  ['boxShadow', 'shadow'],
  ['textShadow', 'shadow'],
  ['fontFamily', 'fontFamily'],
  ['fontSize', 'fontSize'],
  ['fontWeight', 'fontWeight'],
  ['fontStyle', 'keyword'],
  ['fontVariant', 'keyword'],
  ['textTransform', 'keyword'],
  ['textDecoration', 'keyword'],
  ['lineHeight', 'lineHeight'],
  ['letterSpacing', 'letterSpacing'],
  ['padding', 'spacing'],
  ['paddingBlock', 'spacing'],
  ['paddingInline', 'spacing'],
  ['margin', 'spacing'],
  ['marginBlock', 'spacing'],
  ['marginInline', 'spacing'],
  ['outline', 'outline'],
  ['outlineWidth', 'outline'],
  ['outlineStyle', 'keyword'],
  ['outlineOffset', 'outlineOffset'],
  ['transition', 'transition'],
  ['transitionProperty', 'keyword'],
  ['transitionDuration', 'transition'],
  ['transitionTimingFunction', 'transition'],
  ['transitionDelay', 'transition'],
]);

const VARIABLE_KINDS: Readonly<Record<AppearanceVariable, Kind>> = {
  colorPrimary: 'color',
  colorBackground: 'color',
  colorText: 'textColor',
  colorDanger: 'textColor',
  colorSuccess: 'textColor',
  fontFamily: 'fontFamily',
  fontSizeBase: 'fontSize',
  spacingUnit: 'spacingUnit',
  borderRadius: 'radius',
};

const COLOR_FUNCTIONS = ['rgb', 'rgba', 'hsl', 'hsla', 'hwb', 'lab', 'lch', 'oklab', 'oklch', 'color', 'color-mix'];
const MATH_FUNCTIONS = ['calc', 'min', 'max', 'clamp'];
const GRADIENTS = [
  'linear-gradient',
  'radial-gradient',
  'conic-gradient',
  'repeating-linear-gradient',
  'repeating-radial-gradient',
  'repeating-conic-gradient',
];
const TIMING_FUNCTIONS = ['cubic-bezier', 'steps'];

const MAX_LENGTH = 200;
/** Plain CSS characters only: letters, digits, space, `#%.,()-+*_/'"`. No `\`, `;`, `{`, `}`, `@`, `!`, `:`, `<`, `>`, `&`, newline… */
const PLAIN = APPEARANCE_CSS_VALUE;

const kebab = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The value with its `var(--colorPrimary)` turned into the custom property it names; refuses any other var(). */
function resolveVariables(value: string, allowVar: boolean): string {
  return value.replace(/var\(([^)]*)\)/gi, (_, inner: string) => {
    if (!allowVar) refuse('no var() in a variable');
    const name = /^\s*--([A-Za-z]+)\s*$/.exec(inner)?.[1];
    if (!name || !(APPEARANCE_VARIABLES as readonly string[]).includes(name)) refuse('var() names an appearance variable only, without a fallback');
    return `var(${VARIABLE_PROPERTIES[name as AppearanceVariable]})`;
  });
}

function checkFunctions(value: string, kind: Kind): void {
  const allowed = new Set([...COLOR_FUNCTIONS, ...MATH_FUNCTIONS, 'var', '']);
  if (kind === 'background') for (const name of GRADIENTS) allowed.add(name);
  if (kind === 'transition') for (const name of TIMING_FUNCTIONS) allowed.add(name);
  for (const [, name] of value.matchAll(/([A-Za-z0-9_-]*)\s*\(/g)) {
    if (!allowed.has(name!.toLowerCase())) refuse(`${name}() is not allowed`);
  }
  if (/[A-Za-z0-9_-]\s+\(/.test(value)) refuse('no space before "("');
}

/** Text the shopper must read may not be invisible. */
function checkVisibleText(value: string): void {
  const lower = value.toLowerCase().replace(/\s+/g, '');
  const zeroAlpha = /^(?:rgba?|hsla?)\((?:[^,()]*,){3}0*\.?0*%?\)$/.test(lower) || /\/0*\.?0*%?\)$/.test(lower);
  if (lower === 'transparent' || /^#(?:[0-9a-f]{3}0|[0-9a-f]{6}00)$/.test(lower) || zeroAlpha) refuse('no transparent text');
}

const FONT_NAME = /^ *(?:"[A-Za-z0-9 -]*"|'[A-Za-z0-9 -]*'|-?[A-Za-z][A-Za-z0-9-]*(?: +[A-Za-z0-9-]+)*) *$/;
const KEYWORD = /^[a-z-]+(?:\s*,\s*[a-z-]+|\s+[a-z-]+)*$/i;

/** The value as it may be applied, or a Refused error saying why not. */
function checkValue(raw: unknown, kind: Kind, inVariable: boolean): string {
  if (typeof raw !== 'string') return refuse('not a string');
  const value = raw.trim();
  if (value.length === 0) refuse('empty');
  if (value.length > MAX_LENGTH) refuse(`over ${MAX_LENGTH} characters`);
  if (!PLAIN.test(value)) refuse('a character that is not allowed');
  if (value.includes('/*') || value.includes('*/')) refuse('a comment');
  if (/["']/.test(value) && kind !== 'fontFamily') refuse('quotes outside font names');
  if (kind === 'fontFamily' && !/^var\(--fontFamily\)$/i.test(value) && !value.split(',').every((name) => FONT_NAME.test(name))) {
    refuse('not font names');
  }
  if (/\burl\b|image-set|expression|@import/i.test(value)) refuse('loads something');
  checkFunctions(value, kind);
  const resolved = resolveVariables(value, !inVariable);
  switch (kind) {
    case 'textColor':
      checkVisibleText(value);
      break;
    case 'fontSize':
      if (!value.startsWith('var(')) checkFontSize(value);
      break;
    case 'fontWeight':
      if (!/^(?:normal|bold|bolder|lighter|[1-9]00)$/.test(value)) refuse('not a font weight');
      break;
    case 'keyword':
      if (!KEYWORD.test(value)) refuse('not keywords');
      break;
    case 'lineHeight':
      if (!/^(?:normal|[1-3](?:\.\d+)?|\d*\.?\d+(?:px|em|rem))$/.test(value)) refuse('not a line height');
      if (/px$/.test(value) && Number.parseFloat(value) < 12) refuse('a line height under 12px');
      break;
    default:
      break;
  }
  checkSizes(value, kind);
  const bounded = boundLengths(resolved, kind);
  // The look message carries at most 400 characters a value.
  if (bounded.length > 2 * MAX_LENGTH) refuse('too many sizes');
  return bounded;
}

function attempt(path: string, refusals: Refusal[], body: () => void): void {
  try {
    body();
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    refusals.push({ path, reason: error.message });
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks an appearance (anything: the caller need not have parsed it) and returns what may be applied: the theme's
 * variables with the accepted ones over them, the accepted declarations of each selector, and every refusal.
 */
export function checkAppearance(input: unknown): CheckedAppearance {
  const refusals: Refusal[] = [];
  const appearance = isRecord(input) ? input : {};
  if (input !== undefined && !isRecord(input)) refusals.push({ path: '', reason: 'not an object' });
  let theme: Theme = DEFAULT_THEME;
  if (appearance['theme'] !== undefined) {
    if ((APPEARANCE_THEMES as readonly unknown[]).includes(appearance['theme'])) theme = THEMES[appearance['theme'] as AppearanceTheme];
    else refusals.push({ path: 'theme', reason: 'not a theme' });
  }
  const values = new Map<string, string>(themeVariables(theme));
  const variables = isRecord(appearance['variables']) ? appearance['variables'] : {};
  for (const [name, value] of Object.entries(variables)) {
    attempt(`variables.${name}`, refusals, () => {
      if (!Object.hasOwn(VARIABLE_KINDS, name)) refuse('not a variable');
      values.set(VARIABLE_PROPERTIES[name as AppearanceVariable], checkValue(value, VARIABLE_KINDS[name as AppearanceVariable], true));
    });
  }
  const rules: CheckedAppearance['rules'] = {};
  const given = isRecord(appearance['rules']) ? appearance['rules'] : {};
  for (const [selector, declarations] of Object.entries(given)) {
    if (!(APPEARANCE_SELECTORS as readonly string[]).includes(selector)) {
      refusals.push({ path: `rules[${JSON.stringify(selector)}]`, reason: 'not a selector' });
      continue;
    }
    const accepted: Declaration[] = [];
    for (const [property, value] of Object.entries(isRecord(declarations) ? declarations : {})) {
      attempt(`rules[${JSON.stringify(selector)}].${property}`, refusals, () => {
        const kind = PROPERTIES.get(property);
        if (!kind) refuse('not a property an appearance may set');
        accepted.push([kebab(property), checkValue(value, kind!, false)]);
      });
    }
    if (accepted.length) rules[selector as AppearanceSelector] = accepted;
  }
  return { variables: [...values], rules, refusals };
}
