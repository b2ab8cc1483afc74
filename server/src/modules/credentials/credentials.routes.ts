import { ENDPOINT, type CredentialList } from '@svc/protocol';
import type { Request } from 'express';
import type { Principal } from '../../auth/principal';
import type { Clock } from '../../clock';
import type { Database } from '../../db/client';
import type { CredentialCache } from '../../http/credential-cache';
import type { MutationContext } from '../../mutations/mutation';
import { presentedCredential } from '../../http/authenticate';
import { route, type EndpointRoute, type KeySpace } from '../../http/endpoint-router';
import type { AuditActorRef } from '../audit';
import {
  changeAllowedOrigin,
  createCredential,
  currentCredential,
  listCredentials,
  revokeCredential,
  rollWebhookSecret,
  type Change,
} from './credentials.service';

/**
 * The merchant's credentials, a client ID's allowed origins and the HMAC secret (docs/integrating.md#managing-credentials):
 * merchant API key only, each change written to the audit log; and the calling key itself, for any API key.
 */
export function credentialsRoutes(deps: { db: Database; clock: Clock; credentials: CredentialCache }): EndpointRoute[] {
  const changeBy = (principal: Principal, context?: MutationContext): Change => ({
    merchantId: principal.merchantId,
    actor: actorOf(principal),
    now: deps.clock.now(),
    // This instance forgets the changed credential as soon as the change commits, before answering.
    ...(context ? { changed: (hashHex: string) => context.afterCommit(async () => deps.credentials.forget(hashHex)) } : {}),
  });
  return [
    route(ENDPOINT.listCredentials, async ({ res, principal }) => {
      const body: CredentialList = { credentials: await listCredentials(deps.db, principal().merchantId) };
      res.setHeader('Cache-Control', 'no-store');
      res.json(body);
    }),
    route(ENDPOINT.getCurrentCredential, async ({ res, principal }) => {
      const { merchantId, credentialId } = principal();
      res.setHeader('Cache-Control', 'no-store');
      res.json(await currentCredential(deps.db, merchantId, credentialId));
    }),
    route(ENDPOINT.createCredential, async ({ req, body, principal, mutate }) => {
      await mutate(async (tx) => ({ status: 201, body: await createCredential(tx, changeBy(principal()), body) }), sealedSpace(req, principal()));
    }),
    route(ENDPOINT.revokeCredential, async ({ params, principal, mutate }) => {
      await mutate(async (tx, context) => ({ body: await revokeCredential(tx, changeBy(principal(), context), params.credentialId) }));
    }),
    route(ENDPOINT.addAllowedOrigin, async ({ params, body, principal, mutate }) => {
      await mutate(async (tx, context) => ({ body: await changeAllowedOrigin(tx, changeBy(principal(), context), params.credentialId, body.origin, 'add') }));
    }),
    route(ENDPOINT.removeAllowedOrigin, async ({ params, body, principal, mutate }) => {
      await mutate(async (tx, context) => ({
        body: await changeAllowedOrigin(tx, changeBy(principal(), context), params.credentialId, body.origin, 'remove'),
      }));
    }),
    route(ENDPOINT.rollWebhookSecret, async ({ req, body, principal, mutate }) => {
      await mutate(async (tx) => ({ body: await rollWebhookSecret(tx, changeBy(principal()), body.overlapSeconds) }), sealedSpace(req, principal()));
    }),
  ];
}

function actorOf(principal: Principal): AuditActorRef {
  if (principal.kind !== 'merchant_key' && principal.kind !== 'branch_key') throw new Error(`a ${principal.kind} cannot change credentials`);
  return { kind: principal.kind, credentialId: principal.credentialId };
}

/**
 * An answer that carries a new key or secret is kept under an Idempotency-Key sealed with the calling key (which the
 * replay carries again), never in the clear: reading the idempotency store gives no credential.
 */
function sealedSpace(req: Request, principal: Principal): KeySpace {
  const callerKey = presentedCredential(req);
  if (callerKey === null) throw new Error('an authenticated request presents its key');
  return { merchantId: principal.merchantId, caller: { credentialId: principal.credentialId }, sealWith: callerKey };
}
