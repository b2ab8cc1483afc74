/** The hosted-page module's public surface: what other modules and the wiring may use. */
export { decideAfterAuthentication, linkPaymentOperation, payLink } from './consumer-payment.service';
export { findLinkForConsumer } from './hosted-page.queries';
export { LINK_PAYABLE_METHOD_TYPES, LINK_PAYABLE_STATUSES } from './link-payable';
export { toLinkState } from './link-state';
