/**
 * The engine's checks of `config()` and `update()` options (sdk-engine.ts): the options parsed with the protocol's
 * light schemas, their defaults filled in, and for a mistake the message that names the option and the fix.
 */
import type { Appearance, PaymentMethodName, SdkMethodType, SdkUpdate } from '@svc/protocol';
import { parseWith, SdkConfigWire, SdkUpdateWire, type Parsed } from '@svc/protocol/light';

/** A checked `config()`, defaults filled in. */
export interface EngineConfig {
  mode: 'sandbox' | 'production';
  clientId: string;
  methodType: SdkMethodType;
  debug: boolean;
  visualizer: boolean;
  payButtonId: string | undefined;
  appearance: Appearance | undefined;
  paymentMethods: PaymentMethodName[] | undefined;
  locale: string;
  /** The most payments offered (the session's request); undefined: none asked for. */
  maxInstallments: number | undefined;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const OPTION_NAMES = 'mode, clientId, methodType, debug, visualizer, payButtonId, locale, appearance, paymentMethods, maxInstallments';

/** `config(options)`: the config with its defaults, or what is wrong with the options. */
export function checkConfig(options: unknown): Checked<EngineConfig> {
  const parsed = parseWith(SdkConfigWire, options);
  if (!parsed.ok) return { ok: false, message: configMessage(parsed, options, 'config') };
  const {
    mode,
    clientId,
    methodType = 'manual_capture',
    debug = false,
    visualizer = false,
    payButtonId,
    locale = 'auto',
    appearance,
    paymentMethods,
    maxInstallments,
  } = parsed.value;
  return { ok: true, value: { mode, clientId, methodType, debug, visualizer, payButtonId, locale, appearance, paymentMethods, maxInstallments } };
}

/** `update(options)`: the checked update, or what is wrong with it. */
export function checkUpdate(options: unknown): Checked<SdkUpdate> {
  const parsed = parseWith(SdkUpdateWire, options);
  return parsed.ok ? parsed : { ok: false, message: configMessage(parsed, options, 'update') };
}

/** Whether refused options asked for debug mode: the refusal is then said in the console too. */
export const asksForDebug = (options: unknown): boolean => typeof options === 'object' && options !== null && (options as { debug?: unknown }).debug === true;

function configMessage(parsed: Extract<Parsed<unknown>, { ok: false }>, options: unknown, method: 'config' | 'update'): string {
  const value = parsed.path && typeof options === 'object' && options !== null ? (options as Record<string, unknown>)[parsed.path] : undefined;
  if (!parsed.path) return `ServiceFrontEndSDK.${method} needs an options object: { mode: 'sandbox' | 'production', clientId: 'ck_…' }.`;
  if (parsed.message === 'is not a known option') {
    return `ServiceFrontEndSDK.${method}: "${parsed.path}" is not a known option. The options are ${method === 'config' ? OPTION_NAMES : 'appearance'}.`;
  }
  if (value === undefined && !parsed.path.includes('.')) return `ServiceFrontEndSDK.${method}: ${parsed.path} is missing; it ${parsed.message}.`;
  return `ServiceFrontEndSDK.${method}: ${parsed.path} ${parsed.message}.`;
}
