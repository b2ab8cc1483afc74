/**
 * The SDKs' types the components use. In the source they are the loader's (the SDKs' own, sdk-loader/src/sdk-types.ts);
 * the build replaces this module's declarations with the standalone ones printed from the same sources
 * (sdk-core/sdk-types.mjs), so the published types need nothing but React's.
 */
export type * from '@svc/sdk-loader';
