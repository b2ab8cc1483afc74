/** The lazy script of the 3-D Secure dialog (open-authentication-dialog.ts): built into a file of its own. */
import { deliverLazyScript } from '../shared/lazy-script';
import { AuthenticationDialog } from './authentication-dialog';

deliverLazyScript(AuthenticationDialog);
