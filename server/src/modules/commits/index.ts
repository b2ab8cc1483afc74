/** What other modules use of commits: the recorder of a commit's capture outcome (the processor-request worker). */
export { recordCommitCapture } from './commits.service';
