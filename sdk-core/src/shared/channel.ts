/**
 * One typed postMessage channel, used by both ends: the merchant page's end towards a frame (`hostEnd`) and a frame's end
 * towards the page that embeds it (`frameEnd`). A message is accepted only when
 *   - `event.origin` is exactly the other end's origin,
 *   - `event.source` is exactly the other end's window,
 *   - it parses as a message of the other end (protocol schema), and
 *   - it carries this channel's instance id;
 * anything else is dropped silently. Messages go out with targetOrigin = the other end's origin, never '*', tagged
 * with this end's `source` and the instance id.
 */
import type { FrameToHostMessage, HostToFrameMessage } from '@svc/protocol';
import { FrameToHostMessageWire, HostToFrameMessageWire, parseWith, POST_MESSAGE_SOURCES, type Validator } from '@svc/protocol/light';

/** A new widget's instance id: 96 random bits, hex (the protocol's InstanceId shape). */
export function randomInstanceId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A message as its sender writes it: the channel adds `source` and `instanceId`. */
export type MessageBody<M> = M extends unknown ? Omit<M, 'source' | 'instanceId'> : never;

export interface ChannelOptions<In> {
  /** The other end's exact origin: messages from anywhere else are dropped, and messages are sent only there. */
  peerOrigin: string;
  /** The other end's window now (null while it does not exist, e.g. before the iframe is rendered or after it left). */
  peerWindow: () => Window | null;
  /** Ties the two ends of one widget together; messages with another id are dropped. */
  instanceId: string;
  onMessage: (message: In) => void;
}

export interface ChannelEnds<In, Out> {
  /** Parses an incoming message (a `@svc/protocol/light` validator); a message it refuses is dropped. */
  wire: Validator<In>;
  /** This end's `source` tag on outgoing messages. */
  source: Out extends { source: infer S } ? S : never;
}

/** One end of a channel: it takes `_In` messages (handed to its `onMessage`) and sends `Out` messages. */
export interface PostMessageChannel<_In, Out> {
  /** The other end's origin. */
  readonly peerOrigin: string;
  /** Starts listening (once, however often it is called). */
  open(): void;
  /** Stops listening. */
  close(): void;
  /** Returns false when the other end's window is gone. */
  send(body: MessageBody<Out>): boolean;
}

/**
 * One end of a channel, listening on `self` (the window this end lives in) once opened. A closure rather than a class:
 * minified, a class still reaches its state through `this.`, a closure's variables are one letter (this is in the
 * iframe loader's 5 KB).
 */
export function postMessageChannel<In extends { instanceId: string }, Out>(
  self: Window,
  { peerOrigin, peerWindow, instanceId, onMessage }: ChannelOptions<In>,
  { wire, source }: ChannelEnds<In, Out>,
): PostMessageChannel<In, Out> {
  let open = false;
  const listener = (event: MessageEvent): void => {
    const peer = peerWindow();
    if (event.origin !== peerOrigin || peer === null || event.source !== peer) return;
    const parsed = parseWith(wire, event.data);
    if (parsed.ok && parsed.value.instanceId === instanceId) onMessage(parsed.value);
  };
  return {
    peerOrigin,
    open() {
      if (open) return;
      open = true;
      self.addEventListener('message', listener);
    },
    close() {
      open = false;
      self.removeEventListener('message', listener);
    },
    send(body) {
      const peer = peerWindow();
      if (!peer) return false;
      peer.postMessage({ source, instanceId, ...body }, peerOrigin);
      return true;
    },
  };
}

/** The merchant page's end of the channel to a card frame (the frame's origin is the service's). */
export function hostEnd(self: Window, options: ChannelOptions<FrameToHostMessage>): PostMessageChannel<FrameToHostMessage, HostToFrameMessage> {
  return postMessageChannel(self, options, { wire: FrameToHostMessageWire, source: POST_MESSAGE_SOURCES.host });
}

/** A frame's end of the channel to the page embedding it (peer: `window.parent`, at the origin the frame was made for). */
export function frameEnd(self: Window, options: ChannelOptions<HostToFrameMessage>): PostMessageChannel<HostToFrameMessage, FrameToHostMessage> {
  return postMessageChannel(self, options, { wire: HostToFrameMessageWire, source: POST_MESSAGE_SOURCES.frame });
}
