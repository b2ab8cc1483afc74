/** The lazy script of the appearance checker (lazy-look.ts): built into a file of its own. */
import { deliverLazyScript } from '../shared/lazy-script';
import { APPEARANCE_CHECK } from './appearance-check';

deliverLazyScript(APPEARANCE_CHECK);
