/** What other modules use of commits: its processor operation (the registry the processor-request worker uses). */
export { commitCaptureOperation } from './commits.service';
