import { Status, type TransactionStatusCode } from '@svc/protocol';
import { and, desc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { columnParam, reusableQuery } from '../../db/reusable-query';
import { devices, transactions } from '../../db/schema';
import { LINK_PAYABLE_METHOD_TYPES } from '../hosted-page/sql';

const deviceBySticker = reusableQuery('device_by_sticker', { stickerCode: columnParam(devices.stickerCode) }, (db, slots) =>
  db.select({ deviceId: devices.id }).from(devices).where(eq(devices.stickerCode, slots.stickerCode)).limit(1),
);

/** The device (its row id, never its credential) whose sticker this is. */
export async function findStickerDevice(db: Queryable, stickerCode: string): Promise<{ deviceId: string } | null> {
  const [row] = await deviceBySticker(db, { stickerCode });
  return row ?? null;
}

/**
 * The payment link of the device's newest transaction a consumer can pay now: Pending (or one of `statuses`), not past its time-out
 * (the sweep may not have moved it yet), paid through a link. One statement, so a cancel or a time-out that has
 * committed is always seen.
 */
export async function newestPayableLinkOfDevice(
  db: Queryable,
  deviceId: string,
  now: Date,
  statuses: readonly TransactionStatusCode[] = [Status.Pending],
): Promise<string | null> {
  const [row] = await db
    .select({ linkId: transactions.linkId })
    .from(transactions)
    .where(
      and(
        eq(transactions.deviceId, deviceId),
        inArray(transactions.status, [...statuses]),
        inArray(transactions.methodType, [...LINK_PAYABLE_METHOD_TYPES]),
        or(isNull(transactions.timeoutAt), gt(transactions.timeoutAt, now)),
      ),
    )
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(1);
  return row?.linkId ?? null;
}
