/** The merchant-settings module's public surface: a merchant's settings (its default callbacks), read and changed. */
export { callbackDefaultsFor } from './merchant-settings.queries';
export { merchantSettings, updateMerchantSettings, type MerchantSettingsUpdate } from './merchant-settings.service';
