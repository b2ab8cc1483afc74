/** What other modules use of authorizations: its processor operations (the registry the processor-request worker uses). */
export { captureOperation, reauthorizeOperation } from './authorizations.service';
export { tokenChargeOperation } from './token-charge';
