/**
 * The appearance themes (sdk-elements/README.md#appearance) and the custom property each appearance variable sets,
 * apart from the checker (appearance.ts): a page that applies the default look without an appearance needs these
 * alone, and loads the checker only when it is given one (frame/lazy-look.ts).
 */
import type { APPEARANCE_THEMES, APPEARANCE_VARIABLES } from '@svc/protocol/light';
import type { Declaration } from './appearance-css';

export type AppearanceTheme = (typeof APPEARANCE_THEMES)[number];
export type AppearanceVariable = (typeof APPEARANCE_VARIABLES)[number];

/** The custom property each appearance variable sets (those a merchant could already set by hand keep their names). */
export const VARIABLE_PROPERTIES: Readonly<Record<AppearanceVariable, string>> = {
  colorPrimary: '--svc-color-accent',
  colorBackground: '--svc-color-background',
  colorText: '--svc-color-text',
  colorDanger: '--svc-color-error',
  colorSuccess: '--svc-color-success',
  fontFamily: '--svc-font-family',
  fontSizeBase: '--svc-font-size',
  spacingUnit: '--svc-spacing-unit',
  borderRadius: '--svc-radius',
};

export type Theme = Readonly<Record<AppearanceVariable, string> & Record<`--svc-${string}`, string>>;

const SYSTEM_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
export const DEFAULT_THEME: Theme = {
  colorPrimary: '#1456d8',
  colorBackground: 'transparent',
  colorText: '#1a1a1a',
  colorDanger: '#b3261e',
  colorSuccess: '#1b6e35',
  fontFamily: SYSTEM_FONT,
  fontSizeBase: '16px',
  spacingUnit: '2px',
  borderRadius: '6px',
  '--svc-color-muted': '#4a4a4a',
  '--svc-color-border': '#8a8a8a',
  '--svc-color-input': '#ffffff',
  '--svc-color-readonly': '#f3f3f3',
  '--svc-color-tab': 'transparent',
  '--svc-color-scheme': 'light',
};

/** The three themes: every variable, and the few custom properties that only a theme sets (borders, input fill…). */
export const THEMES: Readonly<Record<AppearanceTheme, Theme>> = {
  default: DEFAULT_THEME,
  // Dark; every text colour keeps at least 4.5:1 against the background and the input fill.
  night: {
    ...DEFAULT_THEME,
    colorPrimary: '#85b4ff',
    colorBackground: '#1c1f26',
    colorText: '#f2f4f8',
    colorDanger: '#ff9b94',
    colorSuccess: '#7ad99b',
    '--svc-color-muted': '#c3c8d2',
    '--svc-color-border': '#7b8394',
    '--svc-color-input': '#2a2e38',
    '--svc-color-readonly': '#353a46',
    '--svc-color-tab': '#2a2e38',
    '--svc-color-scheme': 'dark',
    // The card brands' marks in the text's colour: their own dark blues and blacks would not show on the dark field.
    '--svc-color-mark': '#f2f4f8',
  },
  // Borderless fields on a light fill.
  flat: {
    ...DEFAULT_THEME,
    colorPrimary: '#0f5bd8',
    colorBackground: '#ffffff',
    colorText: '#30313d',
    borderRadius: '4px',
    '--svc-color-muted': '#545969',
    '--svc-color-border': '#eceef2',
    '--svc-color-input': '#eceef2',
    '--svc-color-readonly': '#e1e4ea',
    '--svc-color-tab': '#f4f5f8',
  },
};

/** A theme's custom properties, in its order: each variable as the property it sets, the theme's own as they are. */
export const themeVariables = (theme: Theme): Declaration[] =>
  Object.entries(theme).map(([name, value]) => [name in VARIABLE_PROPERTIES ? VARIABLE_PROPERTIES[name as AppearanceVariable] : name, value]);
