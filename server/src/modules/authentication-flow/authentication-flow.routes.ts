import { ENDPOINT, toBrowserTransaction } from '@svc/protocol';
import type { RateLimiter } from '../../http/rate-limit';
import type { ServiceDeps } from '../../service-deps';
import { NotFoundError, UnauthorizedError } from '../../errors';
import { perAddressLimit } from '../../http/address-limit';
import { bearerToken } from '../../http/bearer-token';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { hashCredential } from '../../auth/credential-hash';
import { findAuthentication } from '../authentication';
import { findLiveSession } from '../sdk-sessions';
import { loadTransactionView, toTransactionObject } from '../transactions';
import { notFoundPage, sendPage } from '../consumer-pages';
import { failAuthentication } from './authentication-flow.service';

/**
 * The bank's page of a processor that shows its own (`actionUrl`): the service's URL sends the consumer there. The
 * sandbox mounts its simulated bank page on the same path instead (modules/sandbox, bank-page.routes.ts).
 */
export function authenticationPageRedirect(deps: ServiceDeps & { limiter: RateLimiter }): EndpointRoute {
  return route(
    ENDPOINT.getAuthenticationPage,
    async ({ params, res }) => {
      const authentication = await findAuthentication(deps.db, params.authenticationId);
      if (!authentication?.actionUrl) {
        sendPage(res, deps.env.PUBLIC_BASE_URL, 404, notFoundPage('authentication'));
        return;
      }
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(303, authentication.actionUrl);
    },
    { before: [perAddressLimit(deps.limiter, 'consumer')] },
  );
}

/** The widget's cancel of its bank dialog: the authentication fails (`authentication_failed`), and the widget reads the transaction. */
export function authenticationRoutes(deps: ServiceDeps & { limiter: RateLimiter }): EndpointRoute[] {
  return [
    route(
      ENDPOINT.cancelAuthentication,
      async ({ params, req, res }) => {
        const token = bearerToken(req);
        const authentication = await findAuthentication(deps.db, params.authenticationId);
        if (!token || !authentication?.sdkSessionId) throw token ? new NotFoundError('authentication') : new UnauthorizedError();
        const session = await findLiveSession(deps.db, authentication.sdkSessionId, hashCredential(token), deps.clock.now());
        if (!session) throw new NotFoundError('authentication');
        await failAuthentication(deps, authentication.id);
        const view = await loadTransactionView(deps.db, authentication.transactionId);
        res.setHeader('Cache-Control', 'no-store');
        res.json(toBrowserTransaction(toTransactionObject(view, deps.env.PUBLIC_BASE_URL)));
      },
      { before: [perAddressLimit(deps.limiter, 'sdk')] },
    ),
  ];
}
