/**
 * The protocol constants the browser bundles need. They come from `@svc/protocol/constants`, which holds the lists
 * without any schema library, so the bundles do not pull zod in (importing the package index would evaluate every
 * schema). Only what exists for the SDK alone is defined here.
 */
import { SDK_VERSIONS, TRANSACTION_STATUSES } from '@svc/protocol/constants';

export {
  CURRENCIES,
  MAX_AMOUNT_CENTS,
  METHOD_TYPES,
  PAYMENT_METHODS,
  POST_MESSAGE_SOURCES,
  SDK_ERROR_CODES,
  SDK_METHOD_TYPES,
  SMS_STATES,
  WALLET_METHODS,
} from '@svc/protocol/constants';

export const ELEMENTS_VERSION = SDK_VERSIONS.elements;
export const SDK_MODES = ['sandbox', 'production'] as const;
export const CARD_FIELDS = ['number', 'expiry', 'cvc'] as const;
export const TRANSACTION_STATUS_CODES = TRANSACTION_STATUSES.map((s) => s.status);
export const TRANSACTION_STATUS_NAMES = TRANSACTION_STATUSES.map((s) => s.statusName);
