/** The lazy script of the sandbox's wallet sheet (lazy-sandbox-sheet.ts): built into a file of its own. */
import { deliverLazyScript } from '@svc/sdk-core/shared';
import { SandboxSheet } from './sandbox-sheet';

deliverLazyScript(SandboxSheet);
