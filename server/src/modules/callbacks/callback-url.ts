import type { Env } from '../../env';
import { ApiError } from '../../errors';
import { callbackHostProblem } from './address-guard';

/**
 * The check of a callback URL, an init's or commit's and a merchant's or branch's default alike
 * (docs/integrating.md#delivery-and-retries): https in production (http allowed in the sandbox), no credentials in
 * it, and no literal private, loopback or metadata address. Names are checked again on their resolved addresses at
 * every connect, by the dispatcher. `source` names the URL in the answer when it is not the request's own field.
 */
export function assertCallbackUrlAllowed(url: string, env: Env, source = 'callbackURL'): void {
  const parsed = new URL(url);
  if (env.SVC_MODE === 'production' && parsed.protocol !== 'https:') {
    throw new ApiError('callback_url_not_allowed', `${source} must use https in production.`, {
      errors: [{ path: 'callbackURL', message: 'must use https' }],
    });
  }
  const hostProblem = env.CALLBACK_ALLOW_PRIVATE_NETWORKS ? null : callbackHostProblem(parsed);
  if (hostProblem) {
    throw new ApiError('callback_url_not_allowed', `${source} must reach a public address: ${hostProblem}.`, {
      errors: [{ path: 'callbackURL', message: hostProblem }],
    });
  }
  if (parsed.username || parsed.password) {
    throw new ApiError('callback_url_not_allowed', `${source} must not carry credentials; verify callbacks with the HMAC signature instead.`, {
      errors: [{ path: 'callbackURL', message: 'must not contain a user name or password' }],
    });
  }
}
