/** The merchants module's public surface: who a merchant is (its branches, devices and credentials) and how one is provisioned. */
export { credentialHint, generateCredential, generateHmacSecret } from './credentials';
export { countMerchants, findMerchant, findSandboxDemoMerchant, firstBranchAndDevice, lockProvisioning, revokeCredentials } from './merchants.queries';
export { createMerchantRecords, issueCredentials, provisionMerchant, stickerUrlOf } from './merchants.service';
export { recordedPublicBaseUrl, recordPublicBaseUrl } from './service-settings.queries';
