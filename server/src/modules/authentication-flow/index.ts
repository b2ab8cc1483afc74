/** 3-D Secure's flow: the end of an authentication decides its payment (docs/integrating.md#3-d-secure). */
export {
  completeAuthentication,
  completeToldAuthentication,
  expireAuthentications,
  failAuthentication,
  type AuthenticationEnd,
  type AuthenticationFlowDeps,
} from './authentication-flow.service';
export { authenticationPageRedirect, authenticationRoutes } from './authentication-flow.routes';
export { frameAncestorOf, renderAuthenticationFinished, returnUrlOf } from './authentication-pages';
