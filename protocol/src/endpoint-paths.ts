/**
 * The paths a browser calls (the SDKs, the hosted payment page, the sticker and terminal pages): the only ones the
 * light entry (`@svc/protocol/light`) carries into the bundles, whose size budgets every path would count against.
 */
export const BROWSER_ENDPOINT_PATHS = {
  getPaymentLinkState: '/pay/{linkId}/state',
  payPaymentLink: '/pay/{linkId}',
  getPaymentPage: '/pay/{linkId}',
  getPaymentQrCode: '/pay/{linkId}/qr.svg',
  openSticker: '/s/{stickerCode}',
  nextStickerPayment: '/s/{stickerCode}/next',
  createSdkSession: '/sdk/sessions',
  submitSdkPayment: '/sdk/sessions/{sessionId}/payments',
  terminalSimulator: '/sandbox/terminal',
  terminalCurrent: '/sandbox/terminal/current',
  terminalTap: '/sandbox/terminal/tap',
  terminalCancel: '/sandbox/terminal/cancel',
} as const;

/**
 * The path of every endpoint, by operation: written here once. The endpoint table (endpoints.ts) describes each, the
 * server mounts them from it, and clients fill them with `endpointRequest` (endpoint-path.ts) — the browser scripts
 * too, since this file is free of zod.
 */
export const ENDPOINT_PATHS = {
  initTransaction: '/transactions/init',
  listTransactions: '/transactions',
  getTransaction: '/transactions/{transactionNumber}',
  cancelTransaction: '/transactions/{transactionNumber}/cancel',
  pay: '/transactions/pay',
  void: '/transactions/void',
  authorize: '/transactions/authorize',
  closeAuthorization: '/transactions/{transactionNumber}/closeAuth',
  saveReceipt: '/transactions/{transactionNumber}/receipt',
  getReceipt: '/transactions/{transactionNumber}/receipt',
  commit: '/transactions/{transactionNumber}/commit',
  commitByLink: '/transactions/commitPayment/{commitId}',
  listCallbacks: '/transactions/{transactionNumber}/callbacks',
  redeliverCallback: '/callbacks/{deliveryId}/redeliver',
  getMerchantSettings: '/merchant/settings',
  updateMerchantSettings: '/merchant/settings',
  getSandboxClock: '/sandbox/clock',
  advanceSandboxClock: '/sandbox/clock/advance',
  listSandboxMessages: '/sandbox/messages',
  health: '/healthz',
  ...BROWSER_ENDPOINT_PATHS,
} as const;

export type OperationId = keyof typeof ENDPOINT_PATHS;

/**
 * An endpoint's path with its `{name}` slots filled from `params`, URI-encoded. A missing parameter throws, so a
 * client built on this cannot call a path the table does not list.
 */
export function endpointPath(operationId: OperationId, params: Record<string, string> = {}): string {
  return fillPath(ENDPOINT_PATHS, operationId, params);
}

export type BrowserOperationId = keyof typeof BROWSER_ENDPOINT_PATHS;

/** `endpointPath` over the browser's paths only (the light entry's `endpointPath`). */
export function browserEndpointPath(operationId: BrowserOperationId, params: Record<string, string> = {}): string {
  return fillPath(BROWSER_ENDPOINT_PATHS, operationId, params);
}

function fillPath(table: Record<string, string>, operationId: string, params: Record<string, string>): string {
  const template: string | undefined = table[operationId];
  if (template === undefined) throw new Error(`no endpoint ${operationId} in the endpoint table`);
  return template.replace(/\{(\w+)\}/g, (_slot, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operationId} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
