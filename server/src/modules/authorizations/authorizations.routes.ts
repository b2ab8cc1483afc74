import { AuthorizeRequestSchema, EmptyRequestSchema, PayRequestSchema, VoidRequestSchema } from '@svc/protocol';
import { Router } from 'express';
import type { ServiceDeps } from '../../service-deps';
import { authenticate, principalOf, type AuthenticateDeps } from '../../http/authenticate';
import { runMutation, sendMutation } from '../../http/idempotency';
import { parseInput } from '../../http/parse';
import { mutationScope } from '../../http/mutation-scope';
import { TransactionNumberParam } from '../../http/path-params';
import { closeAuthorization, pay, reauthorize, voidAuthorization } from './authorizations.service';

/** What the authorization routes use: credentials to authenticate with, and the lifecycle services' dependencies. */
export type AuthorizationsRouterDeps = AuthenticateDeps & ServiceDeps;

/** pay, void, authorize and closeAuth: the merchant's moves on an authorization (API or branch key). */
export function authorizationsRouter(deps: AuthorizationsRouterDeps): Router {
  const router = Router();
  const merchantOnly = authenticate(deps, { allow: ['merchant_key', 'branch_key'] });

  router.post('/transactions/pay', merchantOnly, async (req, res) => {
    const body = parseInput(PayRequestSchema, req.body);
    const principal = principalOf(res);
    sendMutation(res, await runMutation(deps.db, deps.clock, mutationScope(req, res, principal), (tx, context) => pay(tx, deps, principal, body, context)));
  });

  router.post('/transactions/void', merchantOnly, async (req, res) => {
    const body = parseInput(VoidRequestSchema, req.body);
    const principal = principalOf(res);
    sendMutation(
      res,
      await runMutation(deps.db, deps.clock, mutationScope(req, res, principal), async (tx, context) => ({
        body: await voidAuthorization(tx, deps, principal, body, context),
      })),
    );
  });

  router.post('/transactions/authorize', merchantOnly, async (req, res) => {
    const body = parseInput(AuthorizeRequestSchema, req.body);
    const principal = principalOf(res);
    sendMutation(
      res,
      await runMutation(deps.db, deps.clock, mutationScope(req, res, principal), (tx, context) => reauthorize(tx, deps, principal, body, context)),
    );
  });

  router.post('/transactions/:transactionNumber/closeAuth', merchantOnly, async (req, res) => {
    const number = parseInput(TransactionNumberParam, req.params.transactionNumber, ['transactionNumber']);
    parseInput(EmptyRequestSchema, req.body);
    const principal = principalOf(res);
    sendMutation(
      res,
      await runMutation(deps.db, deps.clock, mutationScope(req, res, principal), async (tx, context) => ({
        body: await closeAuthorization(tx, deps, principal, number, context),
      })),
    );
  });

  return router;
}
