import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { columnParam, param, reusableStatement } from '../../db/reusable-query';
import { cardAttempts, cardAttemptWindows } from '../../db/schema';

/**
 * Claims the windows of `subject` and then of `address`, in that order, in one statement (the rows of a multi-row
 * insert are written in the order given): each window's row, inserted when missing, is locked until the transaction
 * ends, waiting for whoever holds it. A row lock, not an advisory one, so it holds on any engine and through any pooler.
 */
const claimTwo = reusableStatement(
  { subject: param.text, address: param.text, claimedAt: columnParam(cardAttemptWindows.claimedAt) },
  (_db, s) => sql`insert into ${cardAttemptWindows} (key, claimed_at)
    values ('subject ' || ${s.subject}, ${s.claimedAt}), ('address ' || ${s.address}, ${s.claimedAt})
    on conflict (key) do update set claimed_at = excluded.claimed_at`,
);

export async function lockAttemptsOf(db: Queryable, subject: string, address: string, claimedAt: Date): Promise<void> {
  await claimTwo(db, { subject, address, claimedAt });
}

/** A window an attempt is counted in: the attempts of one subject or one address since `since`, at most `limit` of them. */
export interface AttemptWindow {
  key: string;
  since: Date;
  limit: number;
}

/** What the reservation found: the new attempt's id (null when a window was full), and each window's count and oldest attempt. */
export interface Reservation {
  id: string | null;
  subject: { count: number; oldestMs: number | null };
  address: { count: number; oldestMs: number | null };
}

const reserve = reusableStatement(
  {
    subject: param.text,
    subjectSince: param.timestamp,
    subjectLimit: param.integer,
    address: param.text,
    addressSince: param.timestamp,
    addressLimit: param.integer,
    pruneBefore: param.timestamp,
    attemptedAt: columnParam(cardAttempts.attemptedAt),
  },
  (_db, s) => sql<{
    id: string | null;
    subject_count: number;
    subject_oldest_ms: number | null;
    address_count: number;
    address_oldest_ms: number | null;
  }>`with by_subject as (
      select ${cardAttempts.attemptedAt} as at from ${cardAttempts}
      where ${cardAttempts.subject} = ${s.subject} and ${cardAttempts.attemptedAt} > ${s.subjectSince}
      order by ${cardAttempts.attemptedAt} desc limit ${s.subjectLimit}
    ), by_address as (
      select ${cardAttempts.attemptedAt} as at from ${cardAttempts}
      where ${cardAttempts.clientAddress} = ${s.address} and ${cardAttempts.attemptedAt} > ${s.addressSince}
      order by ${cardAttempts.attemptedAt} desc limit ${s.addressLimit}
    ), windows as (
      select (select count(*) from by_subject)::integer as subject_count,
        (select (extract(epoch from min(at)) * 1000)::float8 from by_subject) as subject_oldest_ms,
        (select count(*) from by_address)::integer as address_count,
        (select (extract(epoch from min(at)) * 1000)::float8 from by_address) as address_oldest_ms
    ), pruned as (
      delete from ${cardAttempts} where ${cardAttempts.attemptedAt} < ${s.pruneBefore}
    ), pruned_windows as (
      delete from ${cardAttemptWindows} where ${cardAttemptWindows.key} in (
        select ${cardAttemptWindows.key} from ${cardAttemptWindows} where ${cardAttemptWindows.claimedAt} < ${s.pruneBefore} for update skip locked)
    ), inserted as (
      insert into ${cardAttempts} (subject, client_address, attempted_at)
      select ${s.subject}, ${s.address}, ${s.attemptedAt} from windows
      where windows.subject_count < ${s.subjectLimit} and windows.address_count < ${s.addressLimit}
      returning id
    )
    select (select id from inserted) as id, windows.* from windows`,
);

/**
 * In one statement, under the windows lockAttemptsOf claimed: the newest attempts of the subject and of the address in
 * their windows (those declined, and those still waiting on the processor, which may be declines); unless either
 * window is full, a new pending attempt at `attemptedAt`; and the attempts no window counts any more pruned (with the
 * client addresses they name), with the windows no attempt claimed since (those another attempt holds are skipped,
 * never waited on). Every part reads the rows as they were when the statement started.
 */
export async function insertAttemptUnlessFull(
  db: Queryable,
  attempt: { subject: AttemptWindow; address: AttemptWindow; pruneBefore: Date; attemptedAt: Date },
): Promise<Reservation> {
  const { subject, address } = attempt;
  const [row] = await reserve(db, {
    subject: subject.key,
    subjectSince: subject.since,
    subjectLimit: subject.limit,
    address: address.key,
    addressSince: address.since,
    addressLimit: address.limit,
    pruneBefore: attempt.pruneBefore,
    attemptedAt: attempt.attemptedAt,
  });
  if (!row) throw new Error('the card attempt reservation answered no row');
  return {
    id: row.id,
    subject: { count: row.subject_count, oldestMs: row.subject_oldest_ms },
    address: { count: row.address_count, oldestMs: row.address_oldest_ms },
  };
}

const markDeclined = reusableStatement(
  { id: columnParam(cardAttempts.id) },
  (_db, s) => sql`update ${cardAttempts} set state = 'declined' where ${cardAttempts.id} = ${s.id}`,
);
const deleteOne = reusableStatement({ id: columnParam(cardAttempts.id) }, (_db, s) => sql`delete from ${cardAttempts} where ${cardAttempts.id} = ${s.id}`);

/** The attempt was declined: it counts until it leaves the windows. */
export async function markAttemptDeclined(db: Queryable, id: string): Promise<void> {
  await markDeclined(db, { id });
}

/** The attempt was not a decline (approved, failed, refused before the processor, a replay): it does not count. */
export async function deleteAttempt(db: Queryable, id: string): Promise<void> {
  await deleteOne(db, { id });
}

/** The attempt waits on a 3-D Secure authentication: it stays pending (counting as a decline) under its id until that ends. */
export async function holdAttemptFor(db: Queryable, id: string, authenticationId: string): Promise<void> {
  await db.update(cardAttempts).set({ authenticationId }).where(eq(cardAttempts.id, id));
}

/** The authentication ended: its attempt is kept as declined (failed, cancelled, timed out, declined) or deleted. */
export async function settleAttemptOf(db: Queryable, authenticationId: string, declined: boolean): Promise<void> {
  if (declined) await db.update(cardAttempts).set({ state: 'declined' }).where(eq(cardAttempts.authenticationId, authenticationId));
  else await db.delete(cardAttempts).where(eq(cardAttempts.authenticationId, authenticationId));
}
