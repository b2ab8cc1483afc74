/** The lazy script of the card payment's wait for the bank (card-submit.ts): built into a file of its own. */
import { deliverLazyScript } from '../shared/lazy-script';
import { awaitAuthentication } from './card-authentication';

deliverLazyScript(awaitAuthentication);
