/**
 * Mirror of protocol's AuthenticationOutcomeSchema (`../authentication.ts`): the sandbox bank page's answer once the
 * authentication ended. A file of its own so that the bank page's script bundles nothing else. Checked against its zod
 * original in light.test.ts.
 */
import { nullable, object, oneOf, string } from './schema';

export const AuthenticationOutcomeWire = object({ outcome: oneOf(['authenticated', 'failed'] as const), returnUrl: nullable(string()) });
