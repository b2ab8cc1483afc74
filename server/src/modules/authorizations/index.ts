/** What other modules use of authorizations: the recorders of its processor outcomes (the processor-request worker). */
export { recordCaptureOutcome, recordReauthorization } from './authorizations.service';
