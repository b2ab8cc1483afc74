import { fillPath, getAuthenticationPagePath, type RequiresAction } from '@svc/protocol';
import type { Queryable } from '../../db/client';
import type { ActionRequired } from '../../processor/processor';
import { randomAlphanumeric } from '../../ids';
import { insertAuthentication, type AuthenticationRow } from './authentication.queries';

/** How long the consumer has to answer the bank before the payment is declined `authentication_failed`. */
export const AUTHENTICATION_TIMEOUT_S = 10 * 60;

/** The bank page of an authentication: an absolute URL on the service's origin. */
export function authenticationUrl(baseUrl: string, id: string): string {
  return `${baseUrl}${fillPath(getAuthenticationPagePath, { authenticationId: id })}`;
}

/**
 * The 202 answer of a payment that waits for the consumer's bank; a widget's names its transaction, which the widget
 * follows on the session's websocket until it leaves 15.
 */
export function requiresActionAnswer(baseUrl: string, id: string, transactionNumber?: string): RequiresAction {
  return {
    status: 'requires_action',
    action: { type: 'three_d_secure', url: authenticationUrl(baseUrl, id) },
    ...(transactionNumber === undefined ? {} : { transactionNumber }),
  };
}

/** A payment the processor answered `requires_action` starts waiting for the consumer's bank. */
export function startAuthentication(
  db: Queryable,
  input: {
    transactionId: string;
    merchantId: string;
    sdkSessionId: string | null;
    action: ActionRequired;
    requestKey: string;
    operation: 'sale' | 'authorize';
    installments: number;
    now: Date;
  },
): Promise<AuthenticationRow> {
  return insertAuthentication(db, {
    id: `auth_${randomAlphanumeric(32)}`,
    transactionId: input.transactionId,
    merchantId: input.merchantId,
    sdkSessionId: input.sdkSessionId,
    processorReference: input.action.reference,
    requestKey: input.requestKey,
    operation: input.operation,
    actionUrl: input.action.actionUrl,
    installments: input.installments,
    expiresAt: new Date(input.now.getTime() + AUTHENTICATION_TIMEOUT_S * 1000),
    createdAt: input.now,
  });
}
