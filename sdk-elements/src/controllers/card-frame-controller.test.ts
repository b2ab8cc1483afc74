/**
 * The controller's end of the card frame's channel, against a same-origin window standing in for the frame: an
 * `authentication` it refuses is answered with `cancelAuthentication`, so the frame's payment ends instead of waiting for
 * a dialog that was never shown; a repeat of one whose dialog is on show is ignored.
 */
import { expect } from '@open-wc/testing';
import type { ReactiveControllerHost } from 'lit';
import { postFrom, waitFor } from '@svc/sdk-core/testing/helpers';
import { CardFrameController, type CardFrameCallbacks, type CardOutcome } from './card-frame-controller';

const host: ReactiveControllerHost = {
  addController: () => undefined,
  removeController: () => undefined,
  requestUpdate: () => undefined,
  updateComplete: Promise.resolve(true),
};

describe('CardFrameController', () => {
  let iframe: HTMLIFrameElement;
  let controller: CardFrameController;
  let toFrame: Array<{ type: string; requestId?: string }>;
  let dialogs: string[];
  /** How many dialogs the controller closed. */
  let closed: number;
  const onFrameMessage = (event: MessageEvent) => toFrame.push(event.data as { type: string });

  /** A message from the stand-in frame, as the card frame writes it. */
  const fromFrame = (body: Record<string, unknown>) =>
    postFrom(iframe.contentWindow!, window, { source: 'svc-card-frame', instanceId: controller.instanceId, ...body }, location.origin);

  beforeEach(() => {
    toFrame = [];
    dialogs = [];
    closed = 0;
    iframe = document.createElement('iframe');
    document.body.append(iframe);
    iframe.contentWindow!.addEventListener('message', onFrameMessage);
    const callbacks: CardFrameCallbacks = {
      readyTimeoutMs: () => 1000,
      onValidation: () => undefined,
      onResize: () => undefined,
      onUnavailable: () => undefined,
      onLook: () => undefined,
      onAuthentication: (url) => {
        dialogs.push(url);
        return () => {
          closed++;
        };
      },
      log: () => undefined,
    };
    controller = new CardFrameController(host, callbacks);
    controller.attach(iframe, location.origin);
  });
  afterEach(() => {
    controller.hostDisconnected();
    iframe.contentWindow?.removeEventListener('message', onFrameMessage);
    iframe.remove();
  });

  /** A payment sent to the frame (after its `ready`): its request id and the outcome the controller will give. */
  async function submitted(): Promise<{ requestId: string; outcome: Promise<CardOutcome> }> {
    fromFrame({ type: 'ready' });
    const outcome = controller.submit({ amount: 1500, currency: 'EUR' });
    const submit = await waitFor(() => toFrame.find((message) => message.type === 'submit'), 'the submit');
    return { requestId: submit.requestId!, outcome };
  }

  it('posts the submit to a ready frame before submit() returns, not a task or a microtask later', async () => {
    fromFrame({ type: 'ready' });
    await waitFor(() => controller.frameReady, 'the ready frame');
    const frameWindow = iframe.contentWindow!;
    const posted: string[] = [];
    const post = frameWindow.postMessage.bind(frameWindow);
    frameWindow.postMessage = ((message: { type: string }, targetOrigin: string) => {
      posted.push(message.type);
      post(message, targetOrigin);
    }) as typeof frameWindow.postMessage;
    void controller.submit({ amount: 1500, currency: 'EUR' });
    expect(posted).to.deep.equal(['submit']);
  });

  it("answers an authentication for a bank's page of another origin with cancelAuthentication, no dialog", async () => {
    const { requestId } = await submitted();
    fromFrame({ type: 'authentication', requestId, url: 'https://bank.example/authentication/auth_1' });
    const cancel = await waitFor(() => toFrame.find((message) => message.type === 'cancelAuthentication'), 'cancelAuthentication');
    expect(cancel.requestId).to.equal(requestId);
    expect(dialogs).to.deep.equal([]);
  });

  it('answers an authentication for no payment in flight with cancelAuthentication, no dialog', async () => {
    fromFrame({ type: 'ready' });
    fromFrame({ type: 'authentication', requestId: 'unknown-1', url: `${location.origin}/authentication/auth_1` });
    const cancel = await waitFor(() => toFrame.find((message) => message.type === 'cancelAuthentication'), 'cancelAuthentication');
    expect(cancel.requestId).to.equal('unknown-1');
    expect(dialogs).to.deep.equal([]);
  });

  it("shows the bank's page of its payment once, and sends no cancel of its own", async () => {
    const { requestId, outcome } = await submitted();
    fromFrame({ type: 'authentication', requestId, url: `${location.origin}/authentication/auth_1` });
    await waitFor(() => dialogs.length === 1, 'the dialog');
    fromFrame({ type: 'result', requestId, ok: false, error: { code: 'payment_cancelled', message: 'cancelled' } });
    expect(await outcome).to.deep.include({ ok: false });
    expect(toFrame.filter((message) => message.type === 'cancelAuthentication')).to.deep.equal([]);
  });

  it("ignores a repeated authentication of the payment whose bank's page is on show: the dialog stays, nothing is cancelled", async () => {
    const { requestId } = await submitted();
    fromFrame({ type: 'authentication', requestId, url: `${location.origin}/authentication/auth_1` });
    await waitFor(() => dialogs.length === 1, 'the dialog');
    fromFrame({ type: 'authentication', requestId, url: `${location.origin}/authentication/auth_1` });
    // Messages are taken in order: once the one after the repeat is answered, the repeat was taken.
    fromFrame({ type: 'authentication', requestId: 'unknown-2', url: `${location.origin}/authentication/auth_2` });
    await waitFor(() => toFrame.find((message) => message.type === 'cancelAuthentication'), 'cancelAuthentication');
    expect(toFrame.filter((message) => message.type === 'cancelAuthentication').map((message) => message.requestId)).to.deep.equal(['unknown-2']);
    expect(dialogs).to.deep.equal([`${location.origin}/authentication/auth_1`]);
    expect(closed).to.equal(0);
  });
});
