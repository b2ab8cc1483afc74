import type { Request, Response } from 'express';
import type { Principal } from '../auth/principal';
import { requestIdOf } from './request-id';

/** The idempotency scope of a mutating request made with a merchant's credential. */
export function mutationScope(req: Request, res: Response, principal: Principal) {
  return {
    merchantId: principal.merchantId,
    caller: { credentialId: principal.credentialId },
    key: req.get('idempotency-key'),
    request: req,
    requestId: requestIdOf(res),
  };
}
