import { createElement, useEffect, useRef, type CSSProperties, type ReactElement } from 'react';
import { useElementEvents } from './element-events';
import type { ExpressProps, SvcEcomSdkExpressElement, SvcEcomSdkExpressElementEventMap } from './sdk-types';
import { useSdkScript, type ScriptSource } from './use-sdk-script';

type Detail<K extends keyof SvcEcomSdkExpressElementEventMap> = SvcEcomSdkExpressElementEventMap[K] extends CustomEvent<infer D> ? D : never;
type Handler = 'onReady' | 'onShow' | 'onPay' | 'onError';

/** `<ServiceExpressCheckout>`'s props: where the service is, Express's props (sdk-express/README.md#props) and its handlers. */
export interface ServiceExpressCheckoutProps extends ScriptSource, Omit<ExpressProps, Handler> {
  /** Once: whether each wallet's button can pay, and why not. */
  onReady?: (detail: Detail<'svc-ready'>) => void;
  /** A wallet's sheet opened. */
  onShow?: (detail: Detail<'svc-show'>) => void;
  /** The consumer approved and the service accepted the payment (status 10): your backend commits it now. */
  onPay?: (detail: Detail<'svc-pay'>) => void;
  /** `{ code, message }`; also a script that could not be loaded (`network_error`). */
  onError?: (detail: Detail<'svc-error'>) => void;
  className?: string;
  style?: CSSProperties;
}

const EVENTS = { 'svc-ready': 'onReady', 'svc-show': 'onShow', 'svc-pay': 'onPay', 'svc-error': 'onError' } as const satisfies Record<
  keyof SvcEcomSdkExpressElementEventMap & `svc-${string}`,
  Handler
>;
const DATA_PROPS = [
  'clientId',
  'amount',
  'currency',
  'logs',
  'methodType',
  'mode',
  'cssUrl',
  'appearance',
  'wallets',
  'locale',
] as const satisfies readonly (keyof ExpressProps)[];

/**
 * Express's wallet buttons (`<svc-ecom-sdk-express>`): loads Express from the service, sets the element's `props`
 * when a value changes (not when only a handler does), and calls the `on…` props with its events' details.
 */
export function ServiceExpressCheckout(props: ServiceExpressCheckoutProps): ReactElement | null {
  const element = useRef<SvcEcomSdkExpressElement | null>(null);
  const ready = useSdkScript('express', props, (message) => props.onError?.({ code: 'network_error', message }));
  const given = Object.fromEntries(DATA_PROPS.filter((name) => props[name] !== undefined).map((name) => [name, props[name]])) as unknown as ExpressProps;
  const key = JSON.stringify(given);
  useEffect(() => {
    if (ready && element.current) element.current.props = JSON.parse(key) as ExpressProps;
  }, [ready, key]);
  useElementEvents(element, ready, EVENTS, props);
  return ready ? createElement('svc-ecom-sdk-express', { ref: element, className: props.className, style: props.style }) : null;
}
