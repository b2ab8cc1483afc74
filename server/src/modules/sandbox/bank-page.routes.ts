import { ENDPOINT } from '@svc/protocol';
import type { RateLimiter } from '../../http/rate-limit';
import type { ServiceDeps } from '../../service-deps';
import { NotFoundError } from '../../errors';
import { perAddressLimit } from '../../http/address-limit';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { pageLanguage } from '../../i18n';
import { findAuthentication } from '../authentication';
import { completeAuthentication, failAuthentication, frameAncestorOf, returnUrlOf } from '../authentication-flow';
import { notFoundPage, sendPage } from '../consumer-pages';
import { renderBankPage } from './bank-page';

/**
 * The sandbox's simulated bank (docs/integrating.md#3-d-secure), mounted in sandbox mode in place of the redirect to a
 * processor's own page (a processor that names one still gets its page): the page a 202 `requires_action` sends the
 * consumer to, and its two answers. The sandbox
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
        // A processor with a page of its own (Stripe, Adyen) in sandbox mode: its page, as outside the sandbox.
        if (authentication.actionUrl !== null && authentication.state === 'pending') {
          res.setHeader('Cache-Control', 'no-store');
          res.redirect(303, authentication.actionUrl);
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
