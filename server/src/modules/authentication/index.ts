/** 3-D Secure authentications: a card payment waiting for the consumer's bank (docs/integrating.md#3-d-secure). */
export { AUTHENTICATION_TIMEOUT_S, authenticationUrl, requiresActionAnswer, startAuthentication } from './authentication';
export {
  claimForCompletion,
  endAuthenticationRow,
  findAuthentication,
  findAuthenticationByRequestKey,
  findExpiredAuthentications,
  type AuthenticationRow,
} from './authentication.queries';
