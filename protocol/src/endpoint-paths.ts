/**
 * The path of every endpoint, one constant per operation (`<operationId>Path`): written here once. The endpoint table
 * (endpoints/) describes each, the server mounts them from it, and clients fill them with `fillPath` (or
 * `endpointRequest`). Separate constants, so a browser bundle carries only the paths it uses; this file is free of zod.
 */
export const initTransactionPath = '/transactions/init';
export const listTransactionsPath = '/transactions';
export const getTransactionPath = '/transactions/{transactionNumber}';
export const cancelTransactionPath = '/transactions/{transactionNumber}/cancel';
export const payPath = '/transactions/pay';
export const voidPath = '/transactions/void';
export const authorizePath = '/transactions/authorize';
export const closeAuthorizationPath = '/transactions/{transactionNumber}/closeAuth';
export const getPaymentLinkStatePath = '/pay/{linkId}/state';
export const payPaymentLinkPath = '/pay/{linkId}';
export const getPaymentPagePath = '/pay/{linkId}';
export const getPaymentQrCodePath = '/pay/{linkId}/qr.svg';
export const openStickerPath = '/s/{stickerCode}';
export const nextStickerPaymentPath = '/s/{stickerCode}/next';
export const saveReceiptPath = '/transactions/{transactionNumber}/receipt';
export const getReceiptPath = '/transactions/{transactionNumber}/receipt';
export const refundTransactionPath = '/transactions/{transactionNumber}/refund';
export const commitPath = '/transactions/{transactionNumber}/commit';
/**
 * The `commitLink`: `cmt_` is written in the template, so no reader can take the link for a transaction's own path
 * (`/transactions/{transactionNumber}/…`); the commit id is `cmt_` and the code.
 */
export const commitByLinkPath = '/transactions/commitPayment/cmt_{commitCode}';
export const listCallbacksPath = '/transactions/{transactionNumber}/callbacks';
export const redeliverCallbackPath = '/callbacks/{deliveryId}/redeliver';
export const createWebhookEndpointPath = '/webhook-endpoints';
export const listWebhookEndpointsPath = '/webhook-endpoints';
export const getWebhookEndpointPath = '/webhook-endpoints/{endpointId}';
export const updateWebhookEndpointPath = '/webhook-endpoints/{endpointId}';
export const deleteWebhookEndpointPath = '/webhook-endpoints/{endpointId}';
export const listEventsPath = '/events';
export const redeliverEventPath = '/events/{eventId}/redeliver';
export const createSdkSessionPath = '/sdk/sessions';
export const submitSdkPaymentPath = '/sdk/sessions/{sessionId}/payments';
export const getAuthenticationPagePath = '/authentication/{authenticationId}';
export const answerAuthenticationPath = '/authentication/{authenticationId}';
export const cancelAuthenticationPath = '/authentication/{authenticationId}/cancel';
export const returnFromAuthenticationPath = '/authentication-returns/{requestKey}';
export const getSandboxClockPath = '/sandbox/clock';
export const advanceSandboxClockPath = '/sandbox/clock/advance';
export const listSandboxMessagesPath = '/sandbox/messages';
export const terminalSimulatorPath = '/sandbox/terminal';
export const terminalCurrentPath = '/sandbox/terminal/current';
export const terminalTapPath = '/sandbox/terminal/tap';
export const terminalCancelPath = '/sandbox/terminal/cancel';
export const listCredentialsPath = '/credentials';
export const getCurrentCredentialPath = '/merchant/credentials/current';
export const createCredentialPath = '/credentials';
export const revokeCredentialPath = '/credentials/{credentialId}/revoke';
export const addAllowedOriginPath = '/credentials/{credentialId}/origins';
export const removeAllowedOriginPath = '/credentials/{credentialId}/origins/remove';
export const rollWebhookSecretPath = '/merchant/webhook-secret/roll';
export const getPaymentMethodsPath = '/merchant/payment-methods';
export const updatePaymentMethodsPath = '/merchant/payment-methods';
export const listAuditLogPath = '/merchant/audit-log';
export const getMerchantSettingsPath = '/merchant/settings';
export const updateMerchantSettingsPath = '/merchant/settings';
export const getMerchantProcessorPath = '/merchant/processor';
export const connectMerchantProcessorPath = '/merchant/processor';
export const healthPath = '/healthz';
export const livenessPath = '/livez';
export const readinessPath = '/readyz';

/**
 * A path template with its `{name}` slots filled from `params`, URI-encoded. A missing parameter throws, so a client
 * built on this cannot call a path the table does not list.
 */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_slot, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
