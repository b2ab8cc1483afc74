/** The postMessage channel, at the merchant page's end: what it accepts, what it drops, and where it sends. */
import { expect } from '@open-wc/testing';
import type { FrameToHostMessage, HostToFrameMessage } from '@svc/protocol';
import { forge, otherOrigin, postFrom, sleep, waitFor } from '../testing/helpers';
import { hostEnd, type PostMessageChannel } from './channel';

const INSTANCE = 'inst_abcdefgh12';
const ready = { source: 'svc-card-frame', instanceId: INSTANCE, type: 'ready' };
const validation = {
  source: 'svc-card-frame',
  instanceId: INSTANCE,
  type: 'validation',
  isValid: false,
  brand: null,
  errors: [{ field: 'number', message: 'Enter the card number.' }],
};

function blankFrame(): HTMLIFrameElement {
  const iframe = document.createElement('iframe');
  iframe.src = 'about:blank';
  document.body.append(iframe);
  return iframe;
}

describe('PostMessageChannel, host end', () => {
  let frame: HTMLIFrameElement;
  let received: FrameToHostMessage[];
  let channel: PostMessageChannel<FrameToHostMessage, HostToFrameMessage>;

  beforeEach(() => {
    frame = blankFrame(); // same origin as this page: the "card frame" of these tests
    received = [];
    channel = hostEnd(window, {
      peerOrigin: location.origin,
      instanceId: INSTANCE,
      peerWindow: () => frame.contentWindow,
      onMessage: (message) => received.push(message),
    });
    channel.open();
  });
  afterEach(() => {
    channel.close();
    document.querySelectorAll('iframe').forEach((node) => node.remove());
  });

  it('accepts a well-formed message from its frame, at the frame origin, with its instance id', async () => {
    postFrom(frame.contentWindow!, window, ready, location.origin);
    postFrom(frame.contentWindow!, window, validation, location.origin);
    await waitFor(() => received.length === 2, 'two messages');
    expect(received).to.deep.equal([ready, validation]);
  });

  it('drops another instance id, malformed messages and unknown keys', async () => {
    for (const message of [
      { ...ready, instanceId: 'inst_someoneelse' },
      { ...ready, source: 'svc-elements-host' },
      { ...ready, extra: 1 },
      { ...validation, errors: [{ field: 'pan', message: 'x' }] },
      { ...ready, type: 'result', requestId: 'r1', ok: true, transaction: { TransactionNumber: 'T1' } },
      JSON.stringify(ready),
      null,
      42,
    ]) {
      postFrom(frame.contentWindow!, window, message, location.origin);
    }
    await sleep(100);
    expect(received).to.have.length(0);
  });

  it('drops messages from any other window: the page itself, another frame of the same origin', async () => {
    window.postMessage(ready, location.origin);
    const other = blankFrame();
    postFrom(other.contentWindow!, window, ready, location.origin);
    await forge(ready); // an iframe on this origin posting to its parent
    await sleep(50);
    expect(received).to.have.length(0);
  });

  it('drops a message from its own frame window when the origin is not the expected one', async () => {
    channel.close();
    channel = hostEnd(window, {
      peerOrigin: otherOrigin(),
      instanceId: INSTANCE,
      peerWindow: () => frame.contentWindow,
      onMessage: (message) => received.push(message),
    });
    channel.open();
    postFrom(frame.contentWindow!, window, ready, location.origin);
    await sleep(100);
    expect(received).to.have.length(0);
  });

  it('accepts a real cross-origin frame, but not another cross-origin window', async () => {
    channel.close();
    const crossOrigin = document.createElement('iframe');
    crossOrigin.src = `${otherOrigin()}/sdk-core/src/testing/forger.html#${new URLSearchParams({ id: 'x', message: JSON.stringify(ready), targetOrigin: location.origin })}`;
    channel = hostEnd(window, {
      peerOrigin: otherOrigin(),
      instanceId: INSTANCE,
      peerWindow: () => crossOrigin.contentWindow,
      onMessage: (message) => received.push(message),
    });
    channel.open();
    document.body.append(crossOrigin);
    await waitFor(() => received.length === 1, 'the message of the cross-origin frame');
    await forge(ready, { origin: otherOrigin() }); // same origin, other window
    await sleep(50);
    expect(received).to.have.length(1);
  });

  it('stops listening when closed', async () => {
    channel.close();
    postFrom(frame.contentWindow!, window, ready, location.origin);
    await sleep(100);
    expect(received).to.have.length(0);
  });

  it('sends to the frame origin only, never "*"', () => {
    const sent: [unknown, unknown][] = [];
    (frame.contentWindow as Window & { postMessage: unknown }).postMessage = (message: unknown, targetOrigin: unknown) => sent.push([message, targetOrigin]);
    expect(channel.send({ type: 'focus' })).to.equal(true);
    expect(sent).to.deep.equal([[{ source: 'svc-elements-host', instanceId: INSTANCE, type: 'focus' }, location.origin]]);
    frame.remove();
    expect(channel.send({ type: 'reset' }), 'nothing to send to once the frame is gone').to.equal(false);
  });
});
