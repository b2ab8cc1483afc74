import { CommitRequestSchema } from '@svc/protocol';
import { Router } from 'express';
import { z } from 'zod';
import type { ServiceDeps } from '../../service-deps';
import { NotFoundError } from '../../errors';
import { authenticate, principalOf, type AuthenticateDeps } from '../../http/authenticate';
import { runMutation, sendMutation } from '../../http/idempotency';
import { parseInput } from '../../http/parse';
import { requestIdOf } from '../../http/request-id';
import { mutationScope } from '../../http/mutation-scope';
import { TransactionNumberParam } from '../../http/path-params';
import { findByCommitId } from './commits.queries';
import { commitByLink, commitByMerchant } from './commits.service';

const CommitIdParam = z.string().regex(/^cmt_[A-Za-z0-9]{32}$/, 'is not a commit id');

/** What the commit routes use: credentials to authenticate with, and the lifecycle services' dependencies. */
export type CommitsRouterDeps = AuthenticateDeps & ServiceDeps;

/** The merchant backend's commit of a widget payment, and the commitLink. */
export function commitsRouter(deps: CommitsRouterDeps): Router {
  const router = Router();
  const merchantOrDevice = authenticate(deps, { allow: ['merchant_key', 'branch_key', 'device'] });

  router.post('/transactions/:transactionNumber/commit', merchantOrDevice, async (req, res) => {
    const number = parseInput(TransactionNumberParam, req.params.transactionNumber, ['transactionNumber']);
    const body = parseInput(CommitRequestSchema, req.body);
    const principal = principalOf(res);
    sendMutation(
      res,
      await runMutation(deps.db, deps.clock, mutationScope(req, res, principal), (tx, context) => commitByMerchant(tx, deps, principal, number, body, context)),
    );
  });

  // The link itself is the credential (random, 190 bits); a GET that commits, as the contract defines it.
  router.get('/transactions/commitPayment/:commitId', async (req, res) => {
    const commitId = parseInput(CommitIdParam, req.params.commitId, ['commitId']);
    const row = await findByCommitId(deps.db, commitId);
    if (!row) throw new NotFoundError('commit');
    const scope = { merchantId: row.merchantId, caller: { space: `commit:${commitId}` }, key: undefined, request: req, requestId: requestIdOf(res) };
    res.setHeader('Cache-Control', 'no-store');
    sendMutation(res, await runMutation(deps.db, deps.clock, scope, (tx, context) => commitByLink(tx, deps, commitId, context)));
  });

  return router;
}
