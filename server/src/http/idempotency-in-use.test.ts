import { Status } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../test/merchant-client';
import { useTestApp, UNTHROTTLED } from '../test/harness';
import { holdTransactionRow, lockWaiters } from '../test/row-lock';

const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Key In Use Shop' });

const cancel = (transactionNumber: string, key: string) =>
  t.app.request(`/transactions/${transactionNumber}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.merchant.apiKey}`, 'idempotency-key': key },
    body: {},
  });

describe('an Idempotency-Key whose first request is still running', () => {
  it('answers the next request 409 idempotency_key_in_use at once, and holds nothing tied to a connection meanwhile', async () => {
    const created = await t.client.init({ amount: 5, currency: 'USD' });
    const transactionNumber = created.body.TransactionNumber;
    const key = `cancel-${Math.random().toString(36).slice(2)}`;
    // The first request claims the key, then waits inside its transaction on the row the test holds.
    const held = await holdTransactionRow(t.database.sql, transactionNumber);
    const first = cancel(transactionNumber, key);
    try {
      await lockWaiters(t.database.sql, 1);
      const second = await cancel(transactionNumber, key);
      expect(second.status).toBe(409);
      expect(codeOf(await second.json())).toBe('idempotency_key_in_use');
      // The claim is a row of the running transaction, not a lock of its session: a transaction pooler or a sharded
      // engine keeps it. (An advisory lock lives in one server's lock manager, for one connection.)
      const advisory = await t.database.sql<{ n: number }[]>`
        select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`;
      expect(advisory[0]!.n).toBe(0);
    } finally {
      await held.release();
    }
    const answered = await first;
    expect(answered.status).toBe(200);
    const replay = await cancel(transactionNumber, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as { status: number }).status).toBe(Status.Cancelled);
  });
});
