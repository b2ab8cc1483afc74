/** The lazy script of the number of payments (lazy-installments-field.ts): built into a file of its own. */
import { deliverLazyScript } from '../shared/lazy-script';
import { InstallmentsField } from './installments-field';

deliverLazyScript(InstallmentsField);
