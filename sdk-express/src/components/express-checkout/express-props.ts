/**
 * The element's `props` (the spec's table, exactly): read once per assignment into settings, or into the SDK error
 * that says what is wrong. A wrong or missing prop is `config_invalid`; an amount that is not decimal text of a positive
 * amount with at most two decimals (`"10.005"`, `"-1"`, `"abc"`) is `invalid_amount`, reported apart so the session
 * can still start and the buttons come alive once the amount is fixed.
 */
import type { ExpressPayData, ExpressReadyDetail, SdkError, SdkMethodType, SdkMode, WalletMethod } from '@svc/protocol';
import { CURRENCIES, majorToCents, MAX_AMOUNT_CENTS, SDK_METHOD_TYPES, SDK_MODES, WALLET_METHODS } from '@svc/protocol/light';

/** Each wallet's button themes, as its own button guidelines name them; the first is the default. */
export const BUTTON_THEMES = { paypal: ['gold', 'blue', 'black', 'white'], applepay: ['black', 'white'], googlepay: ['black', 'white'] } as const;
export type ButtonTheme = { [W in WalletMethod]: (typeof BUTTON_THEMES)[W][number] };

/** `props.appearance`: each wallet's button theme, the buttons' height (40 to 55 px) and corner radius (px). */
export interface ExpressAppearance {
  buttonTheme?: Partial<ButtonTheme>;
  buttonHeight?: number;
  buttonRadius?: number;
}

export interface ExpressProps {
  clientId: string;
  /** Decimal text in major units, at most two decimals: `"10.50"`. */
  amount: string;
  currency: string;
  logs?: boolean;
  methodType?: SdkMethodType;
  mode: SdkMode;
  cssUrl?: string;
  appearance?: ExpressAppearance;
  /** The wallets to show (default: all three), of those the session offers and, in production, the browser too. */
  wallets?: WalletMethod[];
  /** The buttons' and the sandbox sheet's language: `auto` (default, from `navigator.languages`) or `en`, `he`, `ar`, `ru`, `fr`, `de`, `es`. */
  locale?: string;
  onReady?: (detail: ExpressReadyDetail) => void;
  onShow?: (detail: { method: WalletMethod }) => void;
  onPay?: (detail: ExpressPayData) => void;
  onError?: (detail: SdkError) => void;
}

export const HANDLERS = ['onReady', 'onShow', 'onPay', 'onError'] as const;
export type HandlerName = (typeof HANDLERS)[number];

export interface ExpressSettings {
  clientId: string;
  mode: SdkMode;
  methodType: SdkMethodType;
  currency: string;
  logs: boolean;
  cssUrl: string | null;
  buttons: { theme: ButtonTheme; height: number; radius: number | null };
  wallets: readonly WalletMethod[];
  /** As given (`auto` when absent); LocaleState resolves it (an unsupported one is `en`, with one warning). */
  locale: string;
  handlers: Partial<Pick<ExpressProps, HandlerName>>;
  /** The amount in cents, or why it is not usable. */
  amount: { ok: true; cents: number; text: string } | { ok: false; error: SdkError };
}

export type PropsResult = { ok: true; settings: ExpressSettings } | { ok: false; error: SdkError; handlers: ExpressSettings['handlers']; logs: boolean };

const is =
  (values: readonly unknown[]) =>
  (value: unknown): boolean =>
    values.includes(value);
const optional =
  (test: (value: unknown) => boolean) =>
  (value: unknown): boolean =>
    value === undefined || test(value);
const isFunction = optional((value) => typeof value === 'function');

/** Each prop's check and what it must be, as the error message says it. */
const RULES: [string, (value: unknown) => boolean, string][] = [
  ['clientId', (value) => typeof value === 'string' && value.startsWith('ck_'), 'your client ID (ck_…)'],
  ['currency', (value) => typeof value === 'string' && CURRENCIES.includes(value.toUpperCase() as never), `one of ${CURRENCIES.join(', ')}`],
  ['mode', is(SDK_MODES), SDK_MODES.join(' or ')],
  ['methodType', optional(is(SDK_METHOD_TYPES)), SDK_METHOD_TYPES.join(', ')],
  ['logs', optional((value) => typeof value === 'boolean'), 'true or false'],
  ['cssUrl', optional(isHttpUrl), 'the http(s) URL of a style sheet'],
  ['appearance', optional(isAppearance), '{ buttonTheme?, buttonHeight? (40 to 55), buttonRadius? (0 to 28) } (see the README, "Appearance")'],
  ['wallets', optional((value) => Array.isArray(value) && value.length > 0 && value.every(is(WALLET_METHODS))), `a list of ${WALLET_METHODS.join(', ')}`],
  ['locale', optional((value) => typeof value === 'string'), '"auto" or a language such as "fr"'],
  ...HANDLERS.map((name): [string, (value: unknown) => boolean, string] => [name, isFunction, 'a function']),
];
const KNOWN = ['amount', ...RULES.map(([key]) => key)];

export function readAmount(amount: unknown): ExpressSettings['amount'] {
  const cents = typeof amount === 'string' ? majorToCents(amount) : null;
  if (cents === null || cents < 1 || cents > MAX_AMOUNT_CENTS) {
    return {
      ok: false,
      error: {
        code: 'invalid_amount',
        message: `props.amount ${JSON.stringify(amount)} is not decimal text of an amount greater than 0 with at most two decimals, such as "10.50".`,
      },
    };
  }
  return { ok: true, cents, text: (cents / 100).toFixed(2) };
}

export function readProps(props: unknown): PropsResult {
  const input = (typeof props === 'object' && props) || {};
  const value = (key: string): unknown => (input as Record<string, unknown>)[key];
  const problems = Object.keys(input)
    .filter((key) => !KNOWN.includes(key))
    .map((key) => `props.${key} is not a prop`);
  for (const [key, test, expected] of RULES) if (!test(value(key))) problems.push(`props.${key} must be ${expected}`);
  const handlers = Object.fromEntries(HANDLERS.filter((name) => typeof value(name) === 'function').map((name) => [name, value(name)]));
  const logs = value('logs') === true;
  if (problems.length || input !== props) {
    const message = `${input === props ? problems.join('; ') : 'props must be an object'}. Set props to { clientId, amount, currency, mode, methodType?, logs?, cssUrl?, appearance?, wallets?, locale?, onReady?, onShow?, onPay?, onError? }.`;
    return { ok: false, error: { code: 'config_invalid', message }, handlers, logs };
  }
  const cssUrl = value('cssUrl');
  const appearance = (value('appearance') ?? {}) as ExpressAppearance;
  const theme = Object.fromEntries(WALLET_METHODS.map((wallet) => [wallet, appearance.buttonTheme?.[wallet] ?? BUTTON_THEMES[wallet][0]])) as ButtonTheme;
  return {
    ok: true,
    settings: {
      clientId: value('clientId') as string,
      mode: value('mode') as SdkMode,
      methodType: (value('methodType') ?? 'manual_capture') as SdkMethodType,
      currency: (value('currency') as string).toUpperCase(),
      logs,
      cssUrl: typeof cssUrl === 'string' ? new URL(cssUrl, document.baseURI).href : null,
      buttons: { theme, height: appearance.buttonHeight ?? 48, radius: appearance.buttonRadius ?? null },
      wallets: (value('wallets') as WalletMethod[] | undefined) ?? WALLET_METHODS,
      locale: (value('locale') as string | undefined) ?? 'auto',
      handlers,
      amount: readAmount(value('amount')),
    },
  };
}

const isPixels = (value: unknown, min: number, max: number): boolean => typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;

function isAppearance(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { buttonTheme, buttonHeight, buttonRadius, ...rest } = value as ExpressAppearance;
  const themes = buttonTheme ?? {};
  return (
    Object.keys(rest).length === 0 &&
    typeof themes === 'object' &&
    Object.entries(themes).every(([wallet, theme]) => (BUTTON_THEMES[wallet as WalletMethod] as readonly unknown[] | undefined)?.includes(theme)) &&
    (buttonHeight === undefined || isPixels(buttonHeight, 40, 55)) &&
    (buttonRadius === undefined || isPixels(buttonRadius, 0, 28))
  );
}

function isHttpUrl(text: unknown): boolean {
  try {
    return /^https?:$/.test(new URL(String(text), document.baseURI).protocol) && typeof text === 'string';
  } catch {
    return false;
  }
}
