/** What other modules use of authorizations: the recorder of a capture's processor outcome (the processor-request worker). */
export { recordCaptureOutcome } from './authorizations.service';
