import { z } from 'zod';

/** `:transactionNumber` in a path, checked before it reaches a query. */
export const TransactionNumberParam = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a transaction number');

/** A payment link's id: the hosted page's only credential. */
export const LinkIdParam = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'is not a payment link');

/** A device's sticker code (public: it names nothing). */
export const StickerCodeParam = z.string().regex(/^[a-z0-9]{16,64}$/, 'is not a sticker code');

/**
 * Every path parameter of the endpoint table by its name, checked before a handler sees it (endpoint-router.ts):
 * a parameter the table names and this list does not is a programming error, found by the app's test.
 */
export const PATH_PARAMS: Record<string, z.ZodType<string>> = {
  transactionNumber: TransactionNumberParam,
  linkId: LinkIdParam,
  sessionId: z.uuid('is not a session id'),
  // What follows `cmt_` in a commit link (the template writes the prefix).
  commitCode: z.string().regex(/^[A-Za-z0-9]{32}$/, 'is not a commit link'),
  deliveryId: z.uuid('is not a delivery id'),
  credentialId: z.uuid('is not a credential id (the credentialId of GET /credentials, not the key)'),
  stickerCode: StickerCodeParam,
  endpointId: z.uuid('is not a webhook endpoint id'),
  eventId: z.uuid('is not an event id'),
  // A 3-D Secure authentication: the bank page's only credential (its URL).
  authenticationId: z.string().regex(/^auth_[A-Za-z0-9]{32}$/, 'is not an authentication id'),
  // A processor request key (`prq_…`): the payment a bank's return names.
  requestKey: z.string().regex(/^prq_[0-9a-f]{32}$/, 'is not a request key'),
};
