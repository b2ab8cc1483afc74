import { createElement, forwardRef, useEffect, useImperativeHandle, useRef, type CSSProperties } from 'react';
import { useElementEvents } from './element-events';
import type { SdkConfig, SdkError, SdkPayOptions, SvcEcomSdkElementsElement, SvcEcomSdkElementsElementEventMap, Transaction } from './sdk-types';
import { useSdkScript, type ScriptSource } from './use-sdk-script';

type Detail<K extends keyof SvcEcomSdkElementsElementEventMap> = SvcEcomSdkElementsElementEventMap[K] extends CustomEvent<infer D> ? D : never;

/**
 * `<ServiceElements>`'s props: where the service is, the widget's options (as `ServiceFrontEndSDK.config` takes them:
 * `maxInstallments` is the most payments the shopper may split a card payment into, asked of the session), its events.
 */
export interface ServiceElementsProps
  extends ScriptSource, Pick<SdkConfig, 'clientId' | 'mode' | 'methodType' | 'debug' | 'appearance' | 'paymentMethods' | 'locale' | 'maxInstallments'> {
  /** The session is loaded and the payment methods are shown. */
  onReady?: (detail: Detail<'svc-ready'>) => void;
  /** A payment method was chosen (also the initial choice). */
  onPaymentSelected?: (detail: Detail<'svc-payment-selected'>) => void;
  /** A payment started (`isPaying: true`) or ended, whatever the outcome. */
  onPaying?: (detail: Detail<'svc-paying'>) => void;
  /** Whether the chosen method can be paid with now; for cards, the fields' errors (never card data). */
  onValidationStatus?: (detail: Detail<'svc-validation-status'>) => void;
  /** Something went wrong: `code` (the SDK's error codes) and what to do. Also a script that could not be loaded (`network_error`). */
  onError?: (error: SdkError) => void;
  /** The widget's size changed (px). */
  onDimensions?: (detail: Detail<'svc-dimensions'>) => void;
  /** The payment was accepted (status 10): send `transaction.TransactionNumber` to your backend, which commits it. */
  onPaymentSuccess?: (detail: Detail<'svc-payment-success'>) => void;
  className?: string;
  style?: CSSProperties;
}

/** What a ref to `<ServiceElements>` gives: the widget's own methods. */
export interface ServiceElementsHandle {
  /** Pays with the chosen method (from the shopper's click): the transaction, status 10; rejects after `onError`. */
  pay(options?: SdkPayOptions): Promise<Transaction>;
  /** Back to a fresh form after a payment. */
  reset(): void;
  /** The element itself, once mounted. */
  readonly element: SvcEcomSdkElementsElement | null;
}

const EVENTS = {
  'svc-ready': 'onReady',
  'svc-payment-selected': 'onPaymentSelected',
  'svc-paying': 'onPaying',
  'svc-validation-status': 'onValidationStatus',
  'svc-error': 'onError',
  'svc-dimensions': 'onDimensions',
  'svc-payment-success': 'onPaymentSuccess',
} as const satisfies Record<keyof SvcEcomSdkElementsElementEventMap & `svc-${string}`, keyof ServiceElementsProps>;

/**
 * The Elements widget (`<svc-ecom-sdk-elements>`, docs: sdk-elements/README.md): loads Elements from the service,
 * renders the element with these options and calls the `on…` props with its events' details. A ref gives `pay()`.
 */
export const ServiceElements = forwardRef<ServiceElementsHandle, ServiceElementsProps>(function ServiceElements(props, ref) {
  const element = useRef<SvcEcomSdkElementsElement | null>(null);
  const ready = useSdkScript('elements', props, (message) => props.onError?.({ code: 'network_error', message }));
  const { clientId, mode, methodType, debug, appearance, paymentMethods, locale, maxInstallments } = props;
  useEffect(() => {
    const widget = element.current;
    if (!ready || !widget) return;
    Object.assign(widget, {
      clientId,
      mode,
      methodType: methodType ?? 'manual_capture',
      debug: debug ?? false,
      appearance,
      paymentMethods,
      locale: locale ?? 'auto',
      maxInstallments,
    });
  }, [ready, clientId, mode, methodType, debug, appearance, paymentMethods, locale, maxInstallments]);
  useElementEvents(element, ready, EVENTS, props);
  useImperativeHandle(
    ref,
    () => ({
      pay: (options) => (element.current ? element.current.pay(options) : Promise.reject(new Error('ServiceElements is not mounted yet'))),
      reset: () => element.current?.reset(),
      get element() {
        return element.current;
      },
    }),
    [],
  );
  return ready ? createElement('svc-ecom-sdk-elements', { ref: element, className: props.className, style: props.style }) : null;
});
