import { EmptyRequestSchema, InitTransactionRequestSchema } from '@svc/protocol';
import { Router } from 'express';
import type { ServiceDeps } from '../../service-deps';
import { NotFoundError } from '../../errors';
import { authenticate, principalOf, type AuthenticateDeps } from '../../http/authenticate';
import { runMutation, sendMutation } from '../../http/idempotency';
import { mutationScope } from '../../http/mutation-scope';
import { parseInput } from '../../http/parse';
import { TransactionNumberParam } from '../../http/path-params';
import { toTransactionObject } from './transaction-object';
import { findTransactionViewForPrincipal } from './transactions.queries';
import { cancelTransaction, initTransaction } from './transactions.service';

/** What the transactions routes use: credentials to authenticate with, and the lifecycle services' dependencies. */
export type TransactionsRouterDeps = AuthenticateDeps & ServiceDeps;

export function transactionsRouter(deps: TransactionsRouterDeps): Router {
  const router = Router();
  const merchantOrDevice = authenticate(deps, { allow: ['merchant_key', 'branch_key', 'device'] });
  const merchantOnly = authenticate(deps, { allow: ['merchant_key', 'branch_key'] });

  router.post('/transactions/init', merchantOrDevice, async (req, res) => {
    const body = parseInput(InitTransactionRequestSchema, req.body);
    const principal = principalOf(res);
    const response = await runMutation(deps.db, deps.clock, mutationScope(req, res, principal), async (tx) => ({
      body: await initTransaction(tx, deps, principal, body),
    }));
    sendMutation(res, response);
  });

  router.get('/transactions/:transactionNumber', merchantOrDevice, async (req, res) => {
    const number = parseInput(TransactionNumberParam, req.params.transactionNumber, ['transactionNumber']);
    const view = await findTransactionViewForPrincipal(deps.db, principalOf(res), number);
    if (!view) throw new NotFoundError('transaction');
    res.json(toTransactionObject(view, deps.env.PUBLIC_BASE_URL));
  });

  router.post('/transactions/:transactionNumber/cancel', merchantOnly, async (req, res) => {
    const number = parseInput(TransactionNumberParam, req.params.transactionNumber, ['transactionNumber']);
    parseInput(EmptyRequestSchema, req.body);
    const principal = principalOf(res);
    const response = await runMutation(deps.db, deps.clock, mutationScope(req, res, principal), async (tx) => ({
      body: await cancelTransaction(tx, deps, principal, number),
    }));
    sendMutation(res, response);
  });

  return router;
}
