import { ENDPOINT } from '@svc/protocol';
import type { RateLimiter } from '../../http/rate-limit';
import type { ServiceDeps } from '../../service-deps';
import { NotFoundError } from '../../errors';
import type { WithDecision } from '../../mutations/mutation';
import { perAddressLimit } from '../../http/address-limit';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { isFreshDecline, limitDeclines } from '../card-testing';
import { payLink } from './consumer-payment.service';
import { findLinkForConsumer } from './hosted-page.queries';
import { toLinkState } from './link-state';

/** The consumer's side of a payment link (JSON). The link id is the only credential; nothing secret is answered. */
export function hostedPageRoutes(deps: ServiceDeps & { limiter: RateLimiter }): EndpointRoute[] {
  // Consumers have no credential: their address gets a bucket, which also slows card testing through one page.
  const perAddress = { before: [perAddressLimit(deps.limiter, 'consumer')] };
  return [
    route(
      ENDPOINT.getPaymentLinkState,
      async ({ params, res }) => {
        const link = await findLinkForConsumer(deps.db, params.linkId);
        if (!link) throw new NotFoundError('payment link');
        res.setHeader('Cache-Control', 'no-store');
        res.json(toLinkState(link, deps.clock.now()));
      },
      perAddress,
    ),
    route(
      ENDPOINT.payPaymentLink,
      async ({ params, body, req, res, run, send }) => {
        const { linkId } = params;
        // The merchant is needed only to file an Idempotency-Key; without one, payLink finds the link (or answers 404).
        let merchantId = '';
        if (req.get('idempotency-key') !== undefined) {
          const link = await findLinkForConsumer(deps.db, linkId);
          if (!link) throw new NotFoundError('payment link');
          merchantId = link.row.merchantId;
        }
        res.setHeader('Cache-Control', 'no-store');
        // Card testing: the link's and the address's recent declines are counted before the processor is asked.
        const attempt = { subject: `link:${linkId}`, clientAddress: req.ip ?? 'unknown' };
        // The attempt is settled with the payment's decision, in the transaction that records it.
        const pay = (withDecision: WithDecision) =>
          run((tx, context) => payLink(tx, deps, linkId, body, { ...context, withDecision }), { merchantId, caller: { space: `link:${linkId}` } });
        send(await limitDeclines(deps, attempt, pay, isFreshDecline));
      },
      perAddress,
    ),
  ];
}
