import { isStorableInstant, TRANSACTION_PAGE_DEFAULT_LIMIT, type ParsedListTransactionsQuery, type TransactionPage } from '@svc/protocol';
import type { Principal } from '../../auth/principal';
import type { Queryable } from '../../db/client';
import { ValidationError } from '../../errors';
import { findTransactionPage, type PagePosition, type TransactionFilters } from './transaction-list.queries';
import { toTransactionObject } from './transaction-object';
import { findCredentialByHash } from '../../auth/credentials.queries';
import { hashCredential } from '../../auth/credential-hash';

/** `GET /transactions`: a page of the caller's transactions, newest first, and the cursor of the page after it. */
export async function listTransactions(db: Queryable, baseUrl: string, principal: Principal, query: ParsedListTransactionsQuery): Promise<TransactionPage> {
  const limit = query.limit ?? TRANSACTION_PAGE_DEFAULT_LIMIT;
  const after = query.startingAfter === undefined ? null : decodeCursor(query.startingAfter);
  const filters: TransactionFilters = {
    statuses: query.status,
    createdFrom: query.createdFrom === undefined ? undefined : new Date(query.createdFrom),
    createdTo: query.createdTo === undefined ? undefined : new Date(query.createdTo),
    methodType: query.methodType,
    minAmountCents: query.minAmount,
    maxAmountCents: query.maxAmount,
    deviceId: query.deviceId === undefined ? undefined : await deviceInScope(db, principal, query.deviceId),
    posData: query.posData,
    q: query.q,
  };
  // One more than the page: whether it exists is `hasMore`.
  const found = await findTransactionPage(db, principal, filters, after, limit + 1);
  const page = found.slice(0, limit);
  const hasMore = found.length > limit;
  return {
    data: page.map(({ view }) => toTransactionObject(view, baseUrl)),
    hasMore,
    nextCursor: hasMore ? encodeCursor(page.at(-1)!.position) : null,
  };
}

/** The row id of a device the caller may list: its merchant's (its branch's for a branch key; itself for a device). */
async function deviceInScope(db: Queryable, principal: Principal, deviceId: string): Promise<string> {
  const device = await findCredentialByHash(db, hashCredential(deviceId));
  const fits =
    device?.kind === 'device' &&
    device.merchantId === principal.merchantId &&
    (principal.kind !== 'branch_key' || device.branchId === principal.branchId) &&
    (principal.kind !== 'device' || device.deviceId === principal.deviceId);
  if (!device?.deviceId || !fits) throw new ValidationError([{ path: 'deviceId', message: 'is not a device of this merchant (or of this branch)' }]);
  return device.deviceId;
}

const POSITION = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)~([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The cursor of the page after `position`: opaque to the caller (base64url), exact to the microsecond. */
export function encodeCursor(position: PagePosition): string {
  return Buffer.from(`${position.createdAt}~${position.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): PagePosition {
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString());
  const at = match ? Date.parse(match[1]!) : NaN;
  // JavaScript reads 31 February as 3 March: a cursor must spell the instant it names, and one the database takes.
  if (!match || !isStorableInstant(at) || new Date(at).toISOString().slice(0, 23) !== match[1]!.slice(0, 23)) {
    throw new ValidationError([{ path: 'startingAfter', message: "is not a cursor: pass the previous page's nextCursor as it came" }]);
  }
  return { createdAt: match[1]!, id: match[2]! };
}
