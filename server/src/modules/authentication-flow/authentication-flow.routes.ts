import { ENDPOINT, toBrowserTransaction } from '@svc/protocol';
import type { RateLimiter } from '../../http/rate-limit';
import type { ServiceDeps } from '../../service-deps';
import { NotFoundError, UnauthorizedError } from '../../errors';
import { perAddressLimit } from '../../http/address-limit';
import { bearerToken } from '../../http/bearer-token';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { hashCredential } from '../../auth/credential-hash';
import { pageLanguage } from '../../i18n';
import { findAuthentication, findAuthenticationByRequestKey } from '../authentication';
import { findLiveSession } from '../sdk-sessions';
import { loadTransactionView, toTransactionObject } from '../transactions';
import { notFoundPage, sendPage } from '../consumer-pages';
import { completeAuthentication, failAuthentication } from './authentication-flow.service';
import { frameAncestorOf, renderAuthenticationFinished, returnUrlOf } from './authentication-pages';

/**
 * The bank's page of a processor that shows its own (`actionUrl`): while the authentication waits, the service's URL
 * sends the consumer there; once it has ended (the consumer came back, the processor told, it failed), the page says
 * so, framed by the widget's merchant page alone, with the way back to a link's page. The sandbox mounts its
 * simulated bank page on the same path instead (modules/sandbox, bank-page.routes.ts).
 */
export function authenticationPageRedirect(deps: ServiceDeps & { limiter: RateLimiter }): EndpointRoute {
  return route(
    ENDPOINT.getAuthenticationPage,
    async ({ params, req, res }) => {
      const language = pageLanguage({ query: req.query['lang'], acceptLanguage: req.get('accept-language') });
      const authentication = await findAuthentication(deps.db, params.authenticationId);
      if (!authentication?.actionUrl) {
        sendPage(res, deps.env.PUBLIC_BASE_URL, 404, notFoundPage('authentication', language));
        return;
      }
      if (authentication.state === 'pending') {
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(303, authentication.actionUrl);
        return;
      }
      const finished = renderAuthenticationFinished(await returnUrlOf(deps, authentication), language);
      sendPage(res, deps.env.PUBLIC_BASE_URL, 200, finished, await frameAncestorOf(deps, authentication));
    },
    { before: [perAddressLimit(deps.limiter, 'consumer')] },
  );
}

/**
 * The widget's cancel of its bank dialog: the authentication fails (`authentication_failed`), and the widget reads the
 * transaction. The consumer's return from a processor's own bank page: the payment still waiting is completed with
 * what the return carries, once (the completion is claimed: a second return, or the processor's webhook that came
 * first, finds it taken), then the link's page, or the finished page in a widget's dialog.
 */
export function authenticationRoutes(deps: ServiceDeps & { limiter: RateLimiter }): EndpointRoute[] {
  return [
    route(
      ENDPOINT.returnFromAuthentication,
      async ({ params, query, req, res }) => {
        const language = pageLanguage({ query: undefined, acceptLanguage: req.get('accept-language') });
        const found = await findAuthenticationByRequestKey(deps.db, params.requestKey);
        if (!found) {
          sendPage(res, deps.env.PUBLIC_BASE_URL, 404, notFoundPage('authentication', language));
          return;
        }
        const ended = found.state === 'pending' ? await completeAuthentication(deps, found.id, query) : null;
        const authentication = ended?.authentication ?? found;
        const back = await returnUrlOf(deps, authentication);
        if (back) {
          res.setHeader('Cache-Control', 'no-store');
          res.redirect(303, back);
          return;
        }
        sendPage(res, deps.env.PUBLIC_BASE_URL, 200, renderAuthenticationFinished(null, language), await frameAncestorOf(deps, authentication));
      },
      { before: [perAddressLimit(deps.limiter, 'consumer')] },
    ),
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
