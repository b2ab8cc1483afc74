/** Mirror of protocol SdkErrorSchema (`../sdk.ts`), in a file of its own so that the iframe loader needs nothing else of ./session. */
import { SDK_ERROR_CODES } from '../constants';
import { object, oneOf, string } from './schema';

export const SdkErrorWire = object({ code: oneOf(SDK_ERROR_CODES), message: string() });
