/** The sdk-assets module's public surface: what other modules and the wiring may use. */
export { SdkFileCache } from './sdk-files';
export { sendEncoded } from './sdk-assets.routes';
