/** The payment-methods module's public surface: what a merchant's widgets offer. */
export { offeredPaymentMethods, setPaymentMethods } from './payment-methods.service';
