import { ConsumerPayRequestSchema } from '@svc/protocol';
import { Router } from 'express';
import { z } from 'zod';
import type { Database } from '../../db/client';
import type { RateLimiter } from '../../http/rate-limit';
import type { ServiceDeps } from '../../service-deps';
import { NotFoundError } from '../../errors';
import { perAddressLimit } from '../../http/address-limit';
import { runMutation, sendMutation } from '../../http/idempotency';
import { parseInput } from '../../http/parse';
import { requestIdOf } from '../../http/request-id';
import { payLink } from './consumer-payment.service';
import { findLinkFace } from './hosted-page.queries';
import { toLinkState } from './link-state';

const LinkIdParam = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'is not a payment link');

/** What the consumer's page uses: the database, the per-address limiter and the lifecycle services' dependencies. */
export type HostedPageRouterDeps = ServiceDeps & { db: Database; limiter: RateLimiter };

/** The consumer's side of a payment link (JSON). The link id is the only credential; nothing secret is answered. */
export function hostedPageRouter(deps: HostedPageRouterDeps): Router {
  const router = Router();
  // Consumers have no credential: their address gets a bucket, which also slows card testing through one page.
  const perAddress = perAddressLimit(deps.limiter, 'consumer');

  router.get('/pay/:linkId/state', perAddress, async (req, res) => {
    const linkId = parseInput(LinkIdParam, req.params.linkId, ['linkId']);
    const face = await findLinkFace(deps.db, linkId);
    if (!face) throw new NotFoundError('payment link');
    res.setHeader('Cache-Control', 'no-store');
    res.json(toLinkState(face, deps.clock.now()));
  });

  router.post('/pay/:linkId', perAddress, async (req, res) => {
    const linkId = parseInput(LinkIdParam, req.params.linkId, ['linkId']);
    const body = parseInput(ConsumerPayRequestSchema, req.body);
    // The merchant is needed only to file an Idempotency-Key; without one, payLink finds the link (or answers 404).
    const key = req.get('idempotency-key');
    let merchantId = '';
    if (key !== undefined) {
      const face = await findLinkFace(deps.db, linkId);
      if (!face) throw new NotFoundError('payment link');
      merchantId = face.row.merchantId;
    }
    const scope = { merchantId, caller: { space: `link:${linkId}` }, key, request: req, requestId: requestIdOf(res) };
    res.setHeader('Cache-Control', 'no-store');
    sendMutation(res, await runMutation(deps.db, deps.clock, scope, (tx, context) => payLink(tx, deps, linkId, body, context)));
  });

  return router;
}
