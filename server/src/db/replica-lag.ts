import type postgres from 'postgres';

/**
 * How far a streaming replica's data is behind its primary, in seconds: 0 when it has replayed all the WAL it received
 * (idle primary or not, it shows what the primary committed), else the age of the last transaction it replayed. 0 for a
 * server that is no replica (DATABASE_READ_URL naming a primary). Null before it replayed any transaction.
 */
export async function replicaLagSeconds(sql: postgres.Sql): Promise<number | null> {
  const [row] = await sql<{ lag: number | null }[]>`
    select case
      when not pg_is_in_recovery() or pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
      else extract(epoch from now() - pg_last_xact_replay_timestamp())::float8
    end as lag`;
  return row?.lag ?? null;
}
