import { ENDPOINT } from '@svc/protocol';
import type { AppDeps } from '../../app-deps';
import type { ServiceDeps } from '../../service-deps';
import { NotFoundError } from '../../errors';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { listTransactions } from './transaction-list.service';
import { toTransactionObject } from './transaction-object';
import { findTransactionViewForPrincipal } from './transactions.queries';
import { cancelTransaction, initTransaction } from './transactions.service';

/** Create a transaction, list and search them (on the read replica when there is one), read one, cancel it. */
export function transactionsRoutes(deps: ServiceDeps & Pick<AppDeps, 'readDb'>): EndpointRoute[] {
  return [
    route(ENDPOINT.initTransaction, ({ body, principal, mutate }) => mutate(async (tx) => ({ body: await initTransaction(tx, deps, principal(), body) }))),
    route(ENDPOINT.listTransactions, async ({ query, principal, res }) => {
      res.json(await listTransactions(deps.readDb, deps.env.PUBLIC_BASE_URL, principal(), query));
    }),
    route(ENDPOINT.getTransaction, async ({ params, principal, res }) => {
      const view = await findTransactionViewForPrincipal(deps.db, principal(), params.transactionNumber);
      if (!view) throw new NotFoundError('transaction');
      res.json(toTransactionObject(view, deps.env.PUBLIC_BASE_URL));
    }),
    route(ENDPOINT.cancelTransaction, ({ params, principal, mutate }) =>
      mutate(async (tx) => ({ body: await cancelTransaction(tx, deps, principal(), params.transactionNumber) })),
    ),
  ];
}
