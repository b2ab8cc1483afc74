import { CreateSdkSessionRequestSchema, SdkPaymentRequestSchema } from '@svc/protocol';
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { Database } from '../../db/client';
import type { RateLimiter } from '../../http/rate-limit';
import type { ServiceDeps } from '../../service-deps';
import { ApiError, UnauthorizedError } from '../../errors';
import { perAddressLimit } from '../../http/address-limit';
import { runMutation, sendMutation } from '../../http/idempotency';
import { parseInput } from '../../http/parse';
import { requestIdOf } from '../../http/request-id';
import { hashCredential } from '../merchants';
import { findCredentialByHash } from '../merchants';
import { sdkCors } from './sdk-cors';
import { findLiveSession } from './sdk-sessions.queries';
import { createSession, submitSdkPayment } from './sdk-sessions.service';

const SessionIdParam = z.uuid('is not a session id');

/** What the widget session routes use: the database, the per-address limiter and the lifecycle services' dependencies. */
export type SdkSessionsRouterDeps = ServiceDeps & { db: Database; limiter: RateLimiter };

/** The widget's endpoints (docs/integrating.md#browser-sdks): a client ID + Origin starts a session; the session token pays. */
export function sdkSessionsRouter(deps: SdkSessionsRouterDeps): Router {
  const router = Router();
  const serviceOrigin = new URL(deps.env.PUBLIC_BASE_URL).origin;
  const perAddress = perAddressLimit(deps.limiter, 'sdk');
  router.use('/sdk', sdkCors);

  router.post('/sdk/sessions', perAddress, async (req, res) => {
    const body = parseInput(CreateSdkSessionRequestSchema, req.body);
    const client = await findCredentialByHash(deps.db, hashCredential(body.clientId));
    if (!client || client.kind !== 'client') throw new UnauthorizedError();
    const origin = sessionOrigin(req.get('origin'), body.embeddingOrigin, serviceOrigin);
    // A replay answers with the session's token: only to the same client ID from the same origin. The stored answer
    // is sealed under the client ID and the key, so the idempotency store never holds a usable token.
    const scope = {
      merchantId: client.merchantId,
      caller: { space: `client:${client.id} ${origin ?? '-'}` },
      key: req.get('idempotency-key'),
      sealWith: body.clientId,
      request: req,
      requestId: requestIdOf(res),
    };
    sendMutation(
      res,
      await runMutation(deps.db, deps.clock, scope, async (tx) => ({
        body: await createSession(tx, deps, { clientId: body.clientId, methodType: body.methodType, mode: body.mode, origin }),
      })),
    );
  });

  router.post('/sdk/sessions/:sessionId/payments', perAddress, async (req, res) => {
    const sessionId = parseInput(SessionIdParam, req.params.sessionId, ['sessionId']);
    const token = bearerToken(req);
    const session = token ? await findLiveSession(deps.db, sessionId, hashCredential(token), deps.clock.now()) : null;
    if (!session) throw new UnauthorizedError();
    // The card frame calls from the service's own origin; Express from the merchant page the session belongs to.
    const origin = req.get('origin');
    if (origin !== undefined && origin !== serviceOrigin && origin !== session.origin) {
      throw new ApiError('origin_not_allowed', `Payments of this session may come from ${session.origin} or the card frame only.`);
    }
    const body = parseInput(SdkPaymentRequestSchema, req.body);
    // Card numbers are typed in the card frame and sent by it alone: never from the merchant's page (docs/integrating.md#browser-sdks).
    if (body.method === 'card' && origin !== serviceOrigin) {
      throw new ApiError(
        'origin_not_allowed',
        'Card details are accepted from the secure card frame only; render the Elements widget instead of sending them from your page.',
      );
    }
    const scope = {
      merchantId: session.merchantId,
      caller: { space: `session:${session.id}` },
      key: req.get('idempotency-key'),
      request: req,
      requestId: requestIdOf(res),
    };
    res.setHeader('Cache-Control', 'no-store');
    sendMutation(res, await runMutation(deps.db, deps.clock, scope, (tx, context) => submitSdkPayment(tx, deps, session, body, context)));
  });

  return router;
}

/**
 * The merchant page a session is for: the request's Origin, or, for the iframe SDK's widget page (which runs on this
 * service's origin, framed only by origins its client ID allows), the `embeddingOrigin` it names.
 */
function sessionOrigin(origin: string | undefined, embeddingOrigin: string | undefined, serviceOrigin: string): string | undefined {
  if (embeddingOrigin === undefined) return origin;
  if (origin !== serviceOrigin)
    throw new ApiError(
      'origin_not_allowed',
      "embeddingOrigin is sent only by the payment service's own widget page; a merchant page is checked by its Origin header.",
    );
  return embeddingOrigin;
}

function bearerToken(req: Request): string | null {
  const match = /^Bearer\s+(\S{1,200})\s*$/i.exec(req.get('authorization') ?? '');
  return match?.[1] ?? null;
}
