/** What exists for this SDK alone; the wire's constants come from `@svc/protocol/light`. */
import { SDK_VERSIONS } from '@svc/protocol/light';

export const ELEMENTS_VERSION = SDK_VERSIONS.elements;
