/**
 * The SDKs' types, as the loader hands them over. In the source they are the SDKs' own: sdk-core's
 * `ServiceFrontEndSDK` interface and the elements each SDK registers (its define.ts's `HTMLElementTagNameMap`). The
 * build replaces this module's declarations with the standalone ones printed from the same sources
 * (sdk-core/sdk-types.mjs), which export these names and every type they use, so the published types need nothing
 * else.
 */
import type {} from '@svc/sdk-elements/define';
import type {} from '@svc/sdk-express/define';

export type { ServiceFrontEndSDK } from '@svc/sdk-core/host';
export type SvcEcomSdkElementsElement = HTMLElementTagNameMap['svc-ecom-sdk-elements'];
export type SvcEcomSdkExpressElement = HTMLElementTagNameMap['svc-ecom-sdk-express'];
