import { ENDPOINT } from '@svc/protocol';
import type { ServiceDeps } from '../../service-deps';
import { NotFoundError } from '../../errors';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { findByCommitId } from './commits.queries';
import { commitByLink, commitByMerchant } from './commits.service';

/** The merchant backend's commit of a widget payment, and the commitLink. */
export function commitsRoutes(deps: ServiceDeps): EndpointRoute[] {
  return [
    route(ENDPOINT.commit, ({ params, body, principal, mutate }) =>
      mutate((tx, context) => commitByMerchant(tx, deps, principal(), params.transactionNumber, body, context)),
    ),
    // The link itself is the credential (random, 190 bits); a GET that commits, as the spec defines it.
    route(ENDPOINT.commitByLink, async ({ params, res, mutate }) => {
      const commitId = `cmt_${params.commitCode}`;
      const row = await findByCommitId(deps.db, commitId);
      if (!row) throw new NotFoundError('commit');
      res.setHeader('Cache-Control', 'no-store');
      await mutate((tx, context) => commitByLink(tx, deps, commitId, context), { merchantId: row.merchantId, caller: { space: `commit:${commitId}` } });
    }),
  ];
}
