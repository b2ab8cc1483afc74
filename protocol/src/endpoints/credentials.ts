import * as paths from '../endpoint-paths';
import { EmptyRequestSchema } from '../lifecycle-requests';
import {
  AllowedOriginRequestSchema,
  RemoveAllowedOriginRequestSchema,
  CreateCredentialRequestSchema,
  CreatedCredentialSchema,
  CredentialListSchema,
  CredentialSchema,
  RollWebhookSecretRequestSchema,
  RolledWebhookSecretSchema,
} from '../merchant-admin';
import type { EndpointDescription } from './description';

/** The merchant's credentials, its client IDs' allowed origins and the secret that signs its callbacks. */
export const CREDENTIAL_ENDPOINTS = {
  listCredentials: {
    operationId: 'listCredentials',
    method: 'get',
    path: paths.listCredentialsPath,
    tag: 'Merchant',
    summary: "List the merchant's credentials",
    description:
      'Every API key, branch key, device ID and client ID of the merchant, revoked ones included, oldest first: each by its id, ' +
      "kind, hint (prefix and last four characters; never the key), branch, creation and revocation time, and a client ID's allowed origins.",
    auth: ['merchant_key'],
    response: { status: 200, description: 'The credentials', schema: CredentialListSchema },
    errors: [],
    idempotent: false,
  },
  getCurrentCredential: {
    operationId: 'getCurrentCredential',
    method: 'get',
    path: paths.getCurrentCredentialPath,
    tag: 'Merchant',
    summary: 'The calling key itself',
    description:
      'The API key or branch key making the call, as `GET /credentials` lists it: its id, kind, hint and branch (its scope); never the key. ' +
      'To replace a key without its id in hand: read its id here, create the new key, switch to it, and revoke the old one by that id.',
    auth: ['merchant'],
    response: { status: 200, description: 'The calling credential', schema: CredentialSchema },
    errors: [],
    idempotent: false,
  },
  createCredential: {
    operationId: 'createCredential',
    method: 'post',
    path: paths.createCredentialPath,
    tag: 'Merchant',
    summary: 'Create an API key, a branch key or a client ID',
    description:
      'The new credential works on every instance at once. Its value is in this answer only (the service keeps its hash); ' +
      'a replay under the same Idempotency-Key, by the same key, gives it again. Written to the audit log.',
    auth: ['merchant_key'],
    request: CreateCredentialRequestSchema,
    response: { status: 201, description: 'The credential and, once, its value', schema: CreatedCredentialSchema },
    errors: [],
    idempotent: true,
  },
  revokeCredential: {
    operationId: 'revokeCredential',
    method: 'post',
    path: paths.revokeCredentialPath,
    tag: 'Merchant',
    summary: 'Revoke a credential',
    description:
      "Every instance refuses the credential at once (401), and the websockets opened with it close; a revoked client ID's open " +
      'widget sessions can no longer pay. The key making the call cannot ' +
      'revoke itself (409 `own_credential_not_revocable`): create another first, switch to it, and revoke the old one with it. ' +
      'Revoking a revoked credential changes nothing. Written to the audit log.',
    auth: ['merchant_key'],
    request: EmptyRequestSchema,
    response: { status: 200, description: 'The revoked credential', schema: CredentialSchema },
    errors: ['not_found', 'own_credential_not_revocable'],
    idempotent: true,
  },
  addAllowedOrigin: {
    operationId: 'addAllowedOrigin',
    method: 'post',
    path: paths.addAllowedOriginPath,
    tag: 'Merchant',
    summary: "Add an origin to a client ID's allowed origins",
    description:
      'Pages of that origin may then use the client ID (and frame the card frame), on every instance at once. An origin already on ' +
      'the list changes nothing. Written to the audit log.',
    auth: ['merchant_key'],
    request: AllowedOriginRequestSchema,
    response: { status: 200, description: 'The client ID with its allowed origins', schema: CredentialSchema },
    errors: ['not_found', 'not_a_client_id', 'credential_revoked'],
    idempotent: true,
  },
  removeAllowedOrigin: {
    operationId: 'removeAllowedOrigin',
    method: 'post',
    path: paths.removeAllowedOriginPath,
    tag: 'Merchant',
    summary: "Remove an origin from a client ID's allowed origins",
    description:
      'Pages of that origin can no longer start a session with the client ID (403 `origin_not_allowed`), on every instance at once. ' +
      'An origin not on the list changes nothing. Written to the audit log.',
    auth: ['merchant_key'],
    request: RemoveAllowedOriginRequestSchema,
    response: { status: 200, description: 'The client ID with its allowed origins', schema: CredentialSchema },
    errors: ['not_found', 'not_a_client_id', 'credential_revoked'],
    idempotent: true,
  },
  rollWebhookSecret: {
    operationId: 'rollWebhookSecret',
    method: 'post',
    path: paths.rollWebhookSecretPath,
    tag: 'Merchant',
    summary: 'Roll the HMAC secret that signs callbacks',
    description:
      'Makes a new secret, returned in this answer only. For `overlapSeconds` (default 86400) callbacks are signed with both: ' +
      '`webhook-signature` carries a signature by each, `HMAC-Authorization` stays signed with the previous secret and ' +
      '`HMAC-Authorization-Next` carries the new one; after it, only the new secret signs. Written to the audit log (never the secret).',
    auth: ['merchant_key'],
    request: RollWebhookSecretRequestSchema,
    response: { status: 200, description: 'The new secret, once', schema: RolledWebhookSecretSchema },
    errors: [],
    idempotent: true,
  },
} as const satisfies Record<string, EndpointDescription>;
