/** protocol InstanceIdSchema, in a file of its own so that the iframe loader's messages need nothing else of ./sdk. */
import { string } from './schema';

export const InstanceId = string({ pattern: /^[A-Za-z0-9_-]{8,64}$/ });
