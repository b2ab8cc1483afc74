import { Status, type ConsumerPayRequest, type SdkSession, type Transaction } from '@svc/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { cardNumbered, codeOf, consumerPays, TEST_CARD } from '../../test/merchant-client';

/**
 * Card testing: a link or an SDK session takes a few declined attempts, a client address a few more across links and
 * sessions; past that the next attempt answers 429 too_many_declines with Retry-After, before the processor is asked.
 */
const SHOP = 'https://shop.example.com';
const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Tested Shop', origins: [SHOP] });
const DECLINED = cardNumbered('4000000000000002');
const INSUFFICIENT = cardNumbered('4000000000009995');

// Every test starts two hours later than the one before, past every window, so each sees only its own declines.
beforeEach(async () => {
  expect((await t.client.advanceClock(2 * 3600)).status).toBe(200);
});

const newLink = async () => (await t.client.init({ amount: 9, currency: 'USD' })).body;

async function newSession(): Promise<SdkSession> {
  const res = await t.app.request('/sdk/sessions', {
    headers: { origin: SHOP },
    body: { clientId: t.merchant.clientId, methodType: 'authorize', mode: 'sandbox' },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as SdkSession;
}

/** The card frame pays: from the service's own origin, with the session's token. */
async function framePays(session: SdkSession, card: ConsumerPayRequest) {
  const res = await t.app.request(`/sdk/sessions/${session.sessionId}/payments`, {
    headers: { authorization: `Bearer ${session.sessionToken}`, origin: new URL(t.app.env.PUBLIC_BASE_URL).origin },
    body: { ...card, amount: 700, currency: 'USD' },
  });
  return { status: res.status, body: (await res.json()) as unknown, headers: res.headers };
}

function expectTooManyDeclines(answer: { status: number; body: unknown; headers: Headers }, atLeastS: number) {
  expect(answer.status).toBe(429);
  expect(codeOf(answer.body)).toBe('too_many_declines');
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(atLeastS);
  expect(retryAfter).toBeLessThanOrEqual(3600);
}

describe('declines on one payment link', () => {
  it('take five attempts; the next, even with a card that would pay, answers 429 without reaching the processor, for 30 minutes', async () => {
    const link = await newLink();
    for (let attempt = 1; attempt <= 5; attempt++) {
      const paid = await consumerPays(t.app, link, attempt % 2 ? DECLINED : INSUFFICIENT);
      expect(paid.status, `attempt ${attempt}`).toBe(402);
    }
    const refused = await consumerPays(t.app, link, TEST_CARD);
    expectTooManyDeclines(refused, 29 * 60);
    const after = (await t.client.get(link.TransactionNumber)).body;
    expect(after.status).toBe(Status.Declined);
    expect(after.payments).toHaveLength(5);

    await t.client.advanceClock(29 * 60);
    expect(codeOf((await consumerPays(t.app, link, TEST_CARD)).body)).toBe('too_many_declines');
    await t.client.advanceClock(61);
    const paid = await consumerPays(t.app, link, TEST_CARD);
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe(Status.Approved);
  });
});

describe('declines in one SDK session', () => {
  it('take five attempts; the next answers 429 too_many_declines, and no transaction is made for it', async () => {
    const session = await newSession();
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await framePays(session, DECLINED)).status, `attempt ${attempt}`).toBe(402);
    }
    expectTooManyDeclines(await framePays(session, TEST_CARD), 29 * 60);
    const made = await t.database.sql<{ status: number }[]>`select status from transactions where sdk_session_id = ${session.sessionId}`;
    expect(made.map((row) => row.status)).toEqual([Status.Declined, Status.Declined, Status.Declined, Status.Declined, Status.Declined]);
    // Another session (the same address, well under its hourly limit) pays.
    const other = await framePays(await newSession(), TEST_CARD);
    expect(other.status).toBe(200);
    expect((other.body as Transaction).status).toBe(Status.AwaitingCommit);
  });

  it('hold when the attempts come all at once: never more than five reach the processor', async () => {
    const session = await newSession();
    const answers = await Promise.all(Array.from({ length: 12 }, () => framePays(session, DECLINED)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 402)).toHaveLength(5);
    expect(statuses.filter((status) => status !== 402 && status !== 429)).toEqual([]);
    expectTooManyDeclines(await framePays(session, TEST_CARD), 60);
  });
});

describe('declines from one client address', () => {
  it('take DECLINES_PER_ADDRESS_PER_HOUR (20) across links and sessions; the next answers 429 on a fresh link', async () => {
    for (let link = 0; link < 4; link++) {
      const created = await newLink();
      for (let attempt = 0; attempt < 4; attempt++) expect((await consumerPays(t.app, created, DECLINED)).status).toBe(402);
    }
    const session = await newSession();
    for (let attempt = 0; attempt < 4; attempt++) expect((await framePays(session, DECLINED)).status).toBe(402);
    expectTooManyDeclines(await consumerPays(t.app, await newLink(), TEST_CARD), 60);
    expectTooManyDeclines(await framePays(await newSession(), TEST_CARD), 60);
    // An hour after those declines the address may pay again.
    await t.client.advanceClock(3601);
    expect((await consumerPays(t.app, await newLink(), TEST_CARD)).status).toBe(200);
  });
});

describe('the attempts kept', () => {
  const attemptsOf = async (link: Transaction) => {
    const subject = `link:${link.transactionPage.qrURL.split('/pay/')[1]!}`;
    return t.database.sql<{ state: string }[]>`select state from card_attempts where subject = ${subject}`;
  };

  it('a decline stays as declined, an approval leaves nothing, and attempts older than every window are pruned by the next one', async () => {
    const declined = await newLink();
    expect((await consumerPays(t.app, declined, DECLINED)).status).toBe(402);
    expect((await attemptsOf(declined)).map((row) => row.state)).toEqual(['declined']);
    const approved = await newLink();
    expect((await consumerPays(t.app, approved, TEST_CARD)).status).toBe(200);
    expect(await attemptsOf(approved)).toEqual([]);
    // An hour later no window counts the decline: the next attempt anywhere deletes it, with its client address, and
    // the windows of the earlier links.
    await t.client.advanceClock(3601);
    const next = await newLink();
    expect((await consumerPays(t.app, next, DECLINED)).status).toBe(402);
    expect(await attemptsOf(declined)).toEqual([]);
    const [count] = await t.database.sql<{ n: number }[]>`select count(*)::int as n from card_attempts`;
    expect(count?.n).toBe(1);
    const windows = await t.database.sql<{ key: string }[]>`select key from card_attempt_windows where key like 'subject %' order by key`;
    expect(windows.map((row) => row.key)).toEqual([`subject link:${next.transactionPage.qrURL.split('/pay/')[1]!}`]);
  });

  it('an attempt is settled in the transaction that records the decision: it stops counting exactly when the payment is recorded', async () => {
    // Triggers note the database transaction of every write of an attempt, and of each processor request's move to done.
    await t.database.sql.unsafe(`
      create table test_written_in (what text not null, attempt uuid, xid bigint not null);
      create function test_note_written() returns trigger language plpgsql as $$
        begin
          insert into test_written_in values (tg_table_name || ' ' || lower(tg_op), case when tg_table_name = 'card_attempts' then coalesce(new.id, old.id) end, txid_current());
          return null;
        end $$;
      create trigger test_attempt_written after insert or update or delete on card_attempts for each row execute function test_note_written();
      create trigger test_request_done after update on processor_requests for each row when (new.state = 'done') execute function test_note_written();`);
    try {
      /** The settling of the attempt `pays` makes, and the move to done of its payment's request, in the order written. */
      const written = async (pays: () => Promise<{ status: number }>, status: number) => {
        await t.database.sql`delete from test_written_in`;
        expect((await pays()).status).toBe(status);
        return t.database.sql<{ what: string; xid: string }[]>`select what, xid from test_written_in
          where what = 'processor_requests update'
            or attempt = (select attempt from test_written_in where what = 'card_attempts insert') and what <> 'card_attempts insert'
          order by xid, what`;
      };
      for (const [card, status, settling] of [
        [TEST_CARD, 200, 'card_attempts delete'],
        [DECLINED, 402, 'card_attempts update'],
      ] as const) {
        const link = await written(async () => consumerPays(t.app, await newLink(), card), status);
        const session = await newSession();
        const sdk = await written(() => framePays(session, card), status);
        for (const rows of [link, sdk]) {
          expect(rows.map((row) => row.what)).toEqual([settling, 'processor_requests update']);
          expect(rows[0]!.xid).toBe(rows[1]!.xid);
        }
      }
    } finally {
      await t.database.sql.unsafe(`drop trigger test_attempt_written on card_attempts; drop trigger test_request_done on processor_requests;
        drop function test_note_written(); drop table test_written_in;`);
    }
  });
});
