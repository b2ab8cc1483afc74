/** The credentials module's public surface: managing a merchant's credentials, allowed origins and HMAC secret. */
export { changeAllowedOrigin, createCredential, listCredentials, revokeCredential, rollWebhookSecret, type Change } from './credentials.service';
