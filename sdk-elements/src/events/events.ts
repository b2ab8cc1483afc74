/** The events `<svc-ecom-sdk-elements>` dispatches: typed classes, all bubbling and composed (they leave the shadow root). */
import type { PaymentMethodName, SdkError, Transaction } from '@svc/protocol';
import type { CardFieldError } from '@svc/sdk-core/host';

export type { CardFieldError };

const init = <T>(detail: T): CustomEventInit<T> => ({ detail, bubbles: true, composed: true });

/** The session is loaded and the payment methods are shown. */
export class ReadyEvent extends CustomEvent<{ paymentMethods: PaymentMethodName[] }> {
  static readonly type = 'svc-ready';
  constructor(detail: { paymentMethods: PaymentMethodName[] }) {
    super(ReadyEvent.type, init(detail));
  }
}

/** The customer chose a payment method (also sent for the initial choice). */
export class PaymentSelectedEvent extends CustomEvent<{ paymentMethod: PaymentMethodName }> {
  static readonly type = 'svc-payment-selected';
  constructor(detail: { paymentMethod: PaymentMethodName }) {
    super(PaymentSelectedEvent.type, init(detail));
  }
}

/** A payment started (`isPaying: true`) or ended, whatever the outcome (`false`). */
export class PayingEvent extends CustomEvent<{ isPaying: boolean }> {
  static readonly type = 'svc-paying';
  constructor(detail: { isPaying: boolean }) {
    super(PayingEvent.type, init(detail));
  }
}

/** Whether the chosen payment method can be paid with now; for cards, the errors of the fields (no card data). */
export class ValidationStatusEvent extends CustomEvent<{ isValid: boolean; errors: CardFieldError[] }> {
  static readonly type = 'svc-validation-status';
  constructor(detail: { isValid: boolean; errors: CardFieldError[] }) {
    super(ValidationStatusEvent.type, init(detail));
  }
}

/** Something went wrong; `code` is one of SDK_ERROR_CODES and `message` says what to do. */
export class SdkErrorEvent extends CustomEvent<SdkError> {
  static readonly type = 'svc-error';
  constructor(detail: SdkError) {
    super(SdkErrorEvent.type, init(detail));
  }
}

/** The element's rendered size changed (px, rounded up). */
export class DimensionsEvent extends CustomEvent<{ height: number; width: number }> {
  static readonly type = 'svc-dimensions';
  constructor(detail: { height: number; width: number }) {
    super(DimensionsEvent.type, init(detail));
  }
}

/** The payment was accepted: the transaction awaits the merchant backend's commit (status 10). */
export class PaymentSuccessEvent extends CustomEvent<{ transaction: Transaction }> {
  static readonly type = 'svc-payment-success';
  constructor(detail: { transaction: Transaction }) {
    super(PaymentSuccessEvent.type, init(detail));
  }
}

declare global {
  interface HTMLElementEventMap {
    'svc-ready': ReadyEvent;
    'svc-payment-selected': PaymentSelectedEvent;
    'svc-paying': PayingEvent;
    'svc-validation-status': ValidationStatusEvent;
    'svc-error': SdkErrorEvent;
    'svc-dimensions': DimensionsEvent;
    'svc-payment-success': PaymentSuccessEvent;
  }
}
