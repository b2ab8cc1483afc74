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
import { FrameToHostMessageWire, HostToFrameMessageWire, parseWith, POST_MESSAGE_SOURCES } from '@svc/protocol/light';

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
  /** Parses an incoming message; null drops it. */
  accept: (data: unknown) => In | null;
  /** This end's `source` tag on outgoing messages. */
  source: Out extends { source: infer S } ? S : never;
}

export class PostMessageChannel<In extends { instanceId: string }, Out> {
  #open = false;

  readonly #listener = (event: MessageEvent): void => {
    const peer = this.options.peerWindow();
    if (event.origin !== this.options.peerOrigin || peer === null || event.source !== peer) return;
    const message = this.ends.accept(event.data);
    if (!message || message.instanceId !== this.options.instanceId) return;
    this.options.onMessage(message);
  };

  constructor(
    /** The window this end lives in (its `message` events are listened to). */
    private readonly self: Window,
    private readonly options: ChannelOptions<In>,
    private readonly ends: ChannelEnds<In, Out>,
  ) {}

  get peerOrigin(): string {
    return this.options.peerOrigin;
  }

  open(): void {
    if (this.#open) return;
    this.#open = true;
    this.self.addEventListener('message', this.#listener);
  }

  close(): void {
    this.#open = false;
    this.self.removeEventListener('message', this.#listener);
  }

  /** Returns false when the other end's window is gone. */
  send(body: MessageBody<Out>): boolean {
    const peer = this.options.peerWindow();
    if (!peer) return false;
    peer.postMessage({ source: this.ends.source, instanceId: this.options.instanceId, ...body }, this.options.peerOrigin);
    return true;
  }
}

const parsed = <T>(result: { ok: true; value: T } | { ok: false }): T | null => (result.ok ? result.value : null);

/** The merchant page's end of the channel to a card frame (the frame's origin is the service's). */
export function hostEnd(self: Window, options: ChannelOptions<FrameToHostMessage>): PostMessageChannel<FrameToHostMessage, HostToFrameMessage> {
  return new PostMessageChannel(self, options, { accept: (data) => parsed(parseWith(FrameToHostMessageWire, data)), source: POST_MESSAGE_SOURCES.host });
}

/** A frame's end of the channel to the page embedding it (peer: `window.parent`, at the origin the frame was made for). */
export function frameEnd(self: Window, options: ChannelOptions<HostToFrameMessage>): PostMessageChannel<HostToFrameMessage, FrameToHostMessage> {
  return new PostMessageChannel(self, options, { accept: (data) => parsed(parseWith(HostToFrameMessageWire, data)), source: POST_MESSAGE_SOURCES.frame });
}
