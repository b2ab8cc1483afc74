/** The merchants module's public surface: what other modules and the wiring may use. */
export { credentialHint, generateCredential, generateHmacSecret, hashCredential, hashesEqual, randomAlphanumeric } from './credentials';
export {
  countMerchants,
  findCredentialByHash,
  findMerchant,
  findSandboxDemoMerchant,
  firstBranchAndDevice,
  lockProvisioning,
  revokeCredentials,
} from './merchants.queries';
export { createMerchantRecords, issueCredentials, provisionMerchant, stickerUrlOf } from './merchants.service';
export { recordedPublicBaseUrl, recordPublicBaseUrl } from './service-settings.queries';
export { callbackDefaultsFor, setCallbackDefaults } from './merchant-settings.queries';
export { merchantSettings, updateMerchantSettings, type MerchantSettingsUpdate } from './merchant-settings.service';
