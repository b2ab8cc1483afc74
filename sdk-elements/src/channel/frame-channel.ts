/**
 * The merchant page's side of the postMessage channel to one card frame. A message is accepted only when
 *   - `event.origin` is the frame's origin (the service, `new URL(apiBase).origin`),
 *   - `event.source` is this iframe's window,
 *   - it parses as a frame-to-host message, and
 *   - it carries this widget's instance id;
 * anything else is dropped silently. Messages go out with targetOrigin = the frame's origin, never '*'.
 */
import type { FrameToHostMessage, HostToFrameMessage } from '@svc/protocol';
import { FrameToHostMessageWire, parseWith, POST_MESSAGE_SOURCES } from '@svc/protocol/light';

export type HostMessageBody = HostToFrameMessage extends infer M ? (M extends unknown ? Omit<M, 'source' | 'instanceId'> : never) : never;

export interface FrameChannelOptions {
  frameOrigin: string;
  instanceId: string;
  /** The iframe's window now (null before the iframe exists). */
  frameWindow: () => Window | null;
  onMessage: (message: FrameToHostMessage) => void;
}

export class FrameChannel {
  #open = false;

  readonly #listener = (event: MessageEvent): void => {
    const frameWindow = this.options.frameWindow();
    if (event.origin !== this.options.frameOrigin || frameWindow === null || event.source !== frameWindow) return;
    const parsed = parseWith(FrameToHostMessageWire, event.data);
    if (!parsed.ok || parsed.value.instanceId !== this.options.instanceId) return;
    this.options.onMessage(parsed.value);
  };

  constructor(
    private readonly win: Window,
    private readonly options: FrameChannelOptions,
  ) {}

  get frameOrigin(): string {
    return this.options.frameOrigin;
  }

  open(): void {
    if (this.#open) return;
    this.#open = true;
    this.win.addEventListener('message', this.#listener);
  }

  close(): void {
    this.#open = false;
    this.win.removeEventListener('message', this.#listener);
  }

  /** Returns false when the iframe is gone. */
  send(body: HostMessageBody): boolean {
    const frameWindow = this.options.frameWindow();
    if (!frameWindow) return false;
    const message = { source: POST_MESSAGE_SOURCES.host, instanceId: this.options.instanceId, ...body } as HostToFrameMessage;
    frameWindow.postMessage(message, this.options.frameOrigin);
    return true;
  }
}
