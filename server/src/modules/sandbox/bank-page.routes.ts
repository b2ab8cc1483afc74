import { ENDPOINT, isPlainOrigin } from '@svc/protocol';
import type { RateLimiter } from '../../http/rate-limit';
import type { ServiceDeps } from '../../service-deps';
import { NotFoundError } from '../../errors';
import { perAddressLimit } from '../../http/address-limit';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { pageLanguage } from '../../i18n';
import { findAuthentication, type AuthenticationRow } from '../authentication';
import { completeAuthentication, failAuthentication } from '../authentication-flow';
import { notFoundPage, sendPage } from '../consumer-pages';
import { findLinkForConsumerById, sessionOriginOf } from './bank-page.queries';
import { renderBankPage } from './bank-page';

/**
 * The sandbox's simulated bank (docs/integrating.md#3-d-secure), mounted in sandbox mode in place of the redirect to a
 * processor's own page: the page a 202 `requires_action` sends the consumer to, and its two answers. The sandbox
 * processor asks for it (its `requires_action` names no page of its own); the answers end the authentication through
 * the core's flow, which asks the processor to go on with the same payment.
 */
export function bankPageRoutes(deps: ServiceDeps & { limiter: RateLimiter }): EndpointRoute[] {
  const perAddress = { before: [perAddressLimit(deps.limiter, 'consumer')] };
  return [
    route(
      ENDPOINT.getAuthenticationPage,
      async ({ params, req, res }) => {
        const language = pageLanguage({ query: req.query['lang'], acceptLanguage: req.get('accept-language') });
        const authentication = await findAuthentication(deps.db, params.authenticationId);
        if (!authentication) {
          sendPage(res, deps.env.PUBLIC_BASE_URL, 404, notFoundPage('authentication', language));
          return;
        }
        const frameAncestor = await frameAncestorOf(deps, authentication);
        const state =
          authentication.state === 'pending'
            ? ({ kind: 'asking', authenticationId: authentication.id } as const)
            : ({ kind: 'finished', returnUrl: await returnUrlOf(deps, authentication) } as const);
        sendPage(res, deps.env.PUBLIC_BASE_URL, 200, renderBankPage(state, language), frameAncestor);
      },
      perAddress,
    ),
    route(
      ENDPOINT.answerAuthentication,
      async ({ params, body, res }) => {
        const found = await findAuthentication(deps.db, params.authenticationId);
        if (!found) throw new NotFoundError('authentication');
        const ended = body.result === 'complete' ? await completeAuthentication(deps, found.id) : await failAuthentication(deps, found.id);
        const authentication = ended.authentication ?? found;
        res.setHeader('Cache-Control', 'no-store');
        res.json({
          outcome: authentication.state === 'authenticated' ? 'authenticated' : 'failed',
          returnUrl: await returnUrlOf(deps, authentication),
        });
      },
      perAddress,
    ),
  ];
}

/** Where a top-level bank page goes back to: the link's payment page; none for a widget's dialog. */
async function returnUrlOf(deps: ServiceDeps, authentication: AuthenticationRow): Promise<string | null> {
  if (authentication.sdkSessionId !== null) return null;
  const linkId = await findLinkForConsumerById(deps.db, authentication.transactionId);
  return linkId ? `${deps.env.PUBLIC_BASE_URL}/pay/${linkId}` : null;
}

/** A widget's dialog frames the page from the merchant page its session belongs to; a link's page is never framed. */
async function frameAncestorOf(deps: ServiceDeps, authentication: AuthenticationRow): Promise<string | null> {
  if (authentication.sdkSessionId === null) return null;
  const origin = await sessionOriginOf(deps.db, authentication.sdkSessionId);
  return origin !== null && isPlainOrigin(origin) ? origin : null;
}
