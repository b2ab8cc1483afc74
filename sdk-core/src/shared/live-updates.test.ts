/**
 * LiveUpdates against a websocket double (testing/fake-websocket.ts): the URL and its query, the subscribe on every
 * connection, the notices its validator accepts, the backoff, and a close that calls off a reconnection waiting for it.
 */
import { expect } from '@open-wc/testing';
import { TransactionUpdatedNoticeWire, WS_CLOSE_CODES } from '@svc/protocol/light';
import { catchTimers, FakeWebSocket, installFakeWebSocket } from '../testing/fake-websocket';
import { LiveUpdates, type TransactionUpdatedNotice } from './live-updates';

describe('LiveUpdates', () => {
  let uninstall: () => void;
  let timers: ReturnType<typeof catchTimers>;
  let notices: TransactionUpdatedNotice[];
  let reconnects: number;
  beforeEach(() => {
    uninstall = installFakeWebSocket();
    timers = catchTimers();
    notices = [];
    reconnects = 0;
  });
  afterEach(() => {
    timers.restore();
    uninstall();
  });

  const live = (origin?: string) =>
    new LiveUpdates({
      ...(origin ? { origin } : {}),
      query: () => ({ link: 'lnk_1' }),
      subscribe: () => ({ type: 'subscribe', transactionNumber: 'T-1', afterSequence: notices.length }),
      notice: TransactionUpdatedNoticeWire,
      onNotice: (notice) => notices.push(notice),
      reconnect: (event) => event.code !== WS_CLOSE_CODES.CREDENTIAL_REVOKED,
      onReconnect: () => (reconnects += 1),
    });

  it("connects to /ws on the page's origin by default, or the origin given", () => {
    live().open();
    live('https://pay.example').open();
    const expected = new URL('/ws?link=lnk_1', location.href);
    expected.protocol = 'ws:';
    expect(FakeWebSocket.made.map((socket) => socket.url.href)).to.deep.equal([expected.href, 'wss://pay.example/ws?link=lnk_1']);
  });

  it('passes on the notices its validator accepts, and subscribes again on reconnection', () => {
    const updates = live();
    updates.open();
    const [first] = FakeWebSocket.made;
    first!.accept();
    first!.receive({ type: 'transaction.updated', eventId: 'evt_1', sequence: 1, transaction: {} });
    first!.receive({ type: 'subscribed', transactionNumber: 'T-1', replayed: 0 });
    first!.receive('{');
    expect(notices).to.deep.equal([{ type: 'transaction.updated', eventId: 'evt_1', sequence: 1 }]);
    first!.drop(WS_CLOSE_CODES.GOING_AWAY);
    expect(timers.pending().map((timer) => timer.ms)).to.deep.equal([1000]);
    timers.pending()[0]!.run();
    expect(reconnects).to.equal(1);
    const second = FakeWebSocket.made[1]!;
    second.accept();
    expect(second.sent).to.deep.equal([{ type: 'subscribe', transactionNumber: 'T-1', afterSequence: 1 }]);
    updates.close();
  });

  it('doubles the backoff while the connection keeps failing, up to 30 s', () => {
    const updates = live();
    updates.open();
    const delays: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      FakeWebSocket.made.at(-1)!.drop(WS_CLOSE_CODES.INTERNAL_ERROR);
      const [timer] = timers.pending();
      delays.push(timer!.ms);
      timer!.run();
    }
    expect(delays).to.deep.equal([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    updates.close();
  });

  it('starts the backoff over once a connection opens', () => {
    const updates = live();
    updates.open();
    const delays: number[] = [];
    for (const accepted of [false, false, true]) {
      const socket = FakeWebSocket.made.at(-1)!;
      if (accepted) socket.accept();
      socket.drop(WS_CLOSE_CODES.INTERNAL_ERROR);
      const [timer] = timers.pending();
      delays.push(timer!.ms);
      timer!.run();
    }
    expect(delays).to.deep.equal([1000, 2000, 1000]);
    updates.close();
  });

  it('does not reconnect when the page says not to', () => {
    live().open();
    FakeWebSocket.made[0]!.drop(WS_CLOSE_CODES.CREDENTIAL_REVOKED);
    expect(timers.pending()).to.deep.equal([]);
  });

  it('closed while a reconnection waits: the reconnection is called off', () => {
    const updates = live();
    updates.open();
    FakeWebSocket.made[0]!.drop(WS_CLOSE_CODES.GOING_AWAY);
    expect(timers.pending()).to.have.length(1);
    updates.close();
    expect(timers.pending()).to.deep.equal([]);
    expect(FakeWebSocket.made).to.have.length(1);
  });
});
