/**
 * The element's DOM events, one per `props` handler (bubbling and composed, so a listener on the page sees them):
 * `svc-ready` (onReady), `svc-show` (onShow), `svc-pay` (onPay), `svc-error` (onError). Same detail as the handler.
 */
import type { ExpressPayData, ExpressReadyDetail, SdkError, WalletMethod } from '@svc/protocol';

class ExpressEvent<T> extends CustomEvent<T> {
  constructor(type: string, detail: T) {
    super(type, { detail, bubbles: true, composed: true });
  }
}

export class ExpressReadyEvent extends ExpressEvent<ExpressReadyDetail> {
  constructor(detail: ExpressReadyDetail) {
    super('svc-ready', detail);
  }
}
export class ExpressShowEvent extends ExpressEvent<{ method: WalletMethod }> {
  constructor(detail: { method: WalletMethod }) {
    super('svc-show', detail);
  }
}
export class ExpressPayEvent extends ExpressEvent<ExpressPayData> {
  constructor(detail: ExpressPayData) {
    super('svc-pay', detail);
  }
}
export class ExpressErrorEvent extends ExpressEvent<SdkError> {
  constructor(detail: SdkError) {
    super('svc-error', detail);
  }
}
