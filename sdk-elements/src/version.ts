/** Elements' version: in the script URLs (/sdk/elements/<version>/…) and `ServiceFrontEndSDK.version`. */
import { SDK_VERSIONS } from '@svc/protocol/light';

export const ELEMENTS_VERSION = SDK_VERSIONS.elements;
