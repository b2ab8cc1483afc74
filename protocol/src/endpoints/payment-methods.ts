import * as paths from '../endpoint-paths';
import { PaymentMethodsSchema, UpdatePaymentMethodsRequestSchema } from '../merchant-admin';
import type { EndpointDescription } from './description';

/** The payment methods the merchant's widgets offer. */
export const PAYMENT_METHOD_ENDPOINTS = {
  getPaymentMethods: {
    operationId: 'getPaymentMethods',
    method: 'get',
    path: paths.getPaymentMethodsPath,
    tag: 'Merchant',
    summary: "The payment methods the merchant's widgets offer",
    description: 'A subset of `card`, `paypal`, `applepay`, `googlepay` (all four unless the merchant chose otherwise).',
    auth: ['merchant_key'],
    response: { status: 200, description: 'The payment methods', schema: PaymentMethodsSchema },
    errors: [],
    idempotent: false,
  },
  updatePaymentMethods: {
    operationId: 'updatePaymentMethods',
    method: 'post',
    path: paths.updatePaymentMethodsPath,
    tag: 'Merchant',
    summary: "Choose the payment methods the merchant's widgets offer",
    description:
      'New widget sessions offer only these (`paymentMethods` of `POST /sdk/sessions`), and a payment with another method is refused ' +
      'with 409 `payment_method_not_offered`. At least one. Written to the audit log.',
    auth: ['merchant_key'],
    request: UpdatePaymentMethodsRequestSchema,
    response: { status: 200, description: 'The payment methods now offered', schema: PaymentMethodsSchema },
    errors: [],
    idempotent: true,
  },
} as const satisfies Record<string, EndpointDescription>;
