/**
 * followTransaction against a websocket double (testing/fake-websocket.ts) playing the service's `/ws`: the session's
 * socket on the service's origin, the subscribe with `afterSequence: 0` on every connection, the transaction once it
 * leaves the waiting statuses, reconnection after a drop but not after a close that says it cannot help, and nothing
 * left once stopped.
 */
import { expect } from '@open-wc/testing';
import { Status, WS_CLOSE_CODES } from '@svc/protocol';
import { makeTransaction } from '../testing/api-fixtures.js';
import { catchTimers, FakeWebSocket, installFakeWebSocket } from '../testing/fake-websocket';
import { followTransaction } from './transaction-follow';

const NUMBER = 'T-FOLLOW-1';
const update = (sequence: number, overrides: Parameters<typeof makeTransaction>[0]) => ({
  type: 'transaction.updated',
  eventId: `evt_${sequence}`,
  sequence,
  transaction: makeTransaction({ TransactionNumber: NUMBER, ...overrides }),
});

describe('followTransaction', () => {
  let uninstall: () => void;
  let timers: ReturnType<typeof catchTimers>;
  beforeEach(() => {
    uninstall = installFakeWebSocket();
    timers = catchTimers();
  });
  afterEach(() => {
    timers.restore();
    uninstall();
  });

  const socket = (index: number): FakeWebSocket => FakeWebSocket.made[index]!;

  it("connects to the service's /ws with the session token and subscribes from the start", () => {
    const follow = followTransaction('tok_session', NUMBER, 'https://pay.example');
    expect(FakeWebSocket.made).to.have.length(1);
    expect(socket(0).url.href).to.equal('wss://pay.example/ws?session=tok_session');
    socket(0).accept();
    expect(socket(0).sent).to.deep.equal([{ type: 'subscribe', transactionNumber: NUMBER, afterSequence: 0 }]);
    follow.stop();
  });

  it('settles with the transaction once it leaves AwaitingAuthentication, and closes the socket', async () => {
    const follow = followTransaction('tok_session', NUMBER, 'http://pay.example');
    expect(socket(0).url.protocol).to.equal('ws:');
    socket(0).accept();
    socket(0).receive('not json');
    socket(0).receive(update(1, { status: Status.AwaitingAuthentication }));
    socket(0).receive(update(2, { TransactionNumber: 'T-OTHER', status: Status.AwaitingCommit }));
    socket(0).receive({ type: 'transaction.updated', transaction: makeTransaction({ TransactionNumber: NUMBER, status: Status.AwaitingCommit }) });
    expect(socket(0).closedByClient, 'still following').to.equal(false);
    socket(0).receive(update(3, { status: Status.AwaitingCommit }));
    const transaction = await follow.settled;
    expect(transaction.status).to.equal(Status.AwaitingCommit);
    expect(transaction.TransactionNumber).to.equal(NUMBER);
    expect(socket(0).closedByClient).to.equal(true);
  });

  it('reconnects after a drop, after a backoff, and subscribes again from the start', () => {
    const follow = followTransaction('tok_session', NUMBER, 'https://pay.example');
    socket(0).accept();
    socket(0).drop(WS_CLOSE_CODES.GOING_AWAY);
    expect(timers.pending().map((timer) => timer.ms)).to.deep.equal([1000]);
    timers.pending()[0]!.run();
    expect(FakeWebSocket.made).to.have.length(2);
    socket(1).accept();
    expect(socket(1).sent).to.deep.equal([{ type: 'subscribe', transactionNumber: NUMBER, afterSequence: 0 }]);
    follow.stop();
  });

  for (const [name, code] of [
    ['unsupported data', WS_CLOSE_CODES.UNSUPPORTED_DATA],
    ['a policy violation', WS_CLOSE_CODES.POLICY_VIOLATION],
    ['a revoked session', WS_CLOSE_CODES.CREDENTIAL_REVOKED],
  ] as const) {
    it(`does not reconnect after a close for ${name} (${code})`, () => {
      const follow = followTransaction('tok_session', NUMBER, 'https://pay.example');
      socket(0).accept();
      socket(0).drop(code);
      expect(timers.pending()).to.deep.equal([]);
      follow.stop();
    });
  }

  it('stopped while waiting to reconnect: no new socket', () => {
    const follow = followTransaction('tok_session', NUMBER, 'https://pay.example');
    socket(0).accept();
    socket(0).drop(WS_CLOSE_CODES.INTERNAL_ERROR);
    expect(timers.pending(), 'a reconnection waits').to.have.length(1);
    follow.stop();
    expect(timers.pending(), 'called off').to.deep.equal([]);
    expect(FakeWebSocket.made).to.have.length(1);
  });
});
