import { ENDPOINT } from '@svc/protocol';
import type { RateLimiter } from '../../http/rate-limit';
import type { ServiceDeps } from '../../service-deps';
import { ApiError, UnauthorizedError } from '../../errors';
import type { WithDecision } from '../../mutations/mutation';
import { perAddressLimit } from '../../http/address-limit';
import { bearerToken } from '../../http/bearer-token';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { isFreshDecline, limitDeclines } from '../card-testing';
import { sdkCors } from './sdk-cors';
import { findLiveSession } from './sdk-sessions.queries';
import { createSession, submitSdkPayment } from './sdk-sessions.service';
import { hashCredential } from '../../auth/credential-hash';
import { findCredentialByHash } from '../../auth/credentials.queries';

/** The widget's endpoints (docs/integrating.md#browser-sdks): a client ID + Origin starts a session; the session token pays. */
export function sdkSessionsRoutes(deps: ServiceDeps & { limiter: RateLimiter }): EndpointRoute[] {
  const serviceOrigin = new URL(deps.env.PUBLIC_BASE_URL).origin;
  const browserCall = { before: [perAddressLimit(deps.limiter, 'sdk')], cors: sdkCors };
  return [
    route(
      ENDPOINT.createSdkSession,
      async ({ body, req, mutate }) => {
        const client = await findCredentialByHash(deps.db, hashCredential(body.clientId));
        if (!client || client.kind !== 'client') throw new UnauthorizedError();
        const origin = sessionOrigin(req.get('origin'), body.embeddingOrigin, serviceOrigin);
        // A replay answers with the session's token: only to the same client ID from the same origin. The stored answer
        // is sealed under the client ID and the key, so the idempotency store never holds a usable token.
        const space = { merchantId: client.merchantId, caller: { space: `client:${client.id} ${origin ?? '-'}` }, sealWith: body.clientId };
        await mutate(
          async (tx) => ({
            body: await createSession(tx, deps, {
              clientId: body.clientId,
              methodType: body.methodType,
              mode: body.mode,
              origin,
              maxInstallments: body.maxInstallments,
            }),
          }),
          space,
        );
      },
      browserCall,
    ),
    route(
      ENDPOINT.submitSdkPayment,
      async ({ params, body, req, res, run, send }) => {
        const token = bearerToken(req);
        const session = token ? await findLiveSession(deps.db, params.sessionId, hashCredential(token), deps.clock.now()) : null;
        if (!session) throw new UnauthorizedError();
        // The card frame calls from the service's own origin; Express from the merchant page the session belongs to.
        const origin = req.get('origin');
        if (origin !== undefined && origin !== serviceOrigin && origin !== session.origin) {
          throw new ApiError('origin_not_allowed', `Payments of this session may come from ${session.origin} or the card frame only.`);
        }
        // Card numbers are typed in the card frame and sent by it alone: never from the merchant's page (docs/integrating.md#browser-sdks).
        if (body.method === 'card' && origin !== serviceOrigin) {
          throw new ApiError(
            'origin_not_allowed',
            'Card details are accepted from the secure card frame only; render the Elements widget instead of sending them from your page.',
          );
        }
        res.setHeader('Cache-Control', 'no-store');
        // Card testing: the session's and the address's recent declines are counted before the processor is asked.
        const attempt = { subject: `session:${session.id}`, clientAddress: req.ip ?? 'unknown' };
        const space = { merchantId: session.merchantId, caller: { space: `session:${session.id}` } };
        // The attempt is settled with the payment's decision, in the transaction that records it.
        const pay = (withDecision: WithDecision) => run((tx, context) => submitSdkPayment(tx, deps, session, body, { ...context, withDecision }), space);
        send(await limitDeclines(deps, attempt, pay, isFreshDecline));
      },
      browserCall,
    ),
  ];
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
