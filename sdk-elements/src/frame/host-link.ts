/**
 * The frame's side of the postMessage channel. It accepts a message only when it comes from `window.parent`, from the
 * origin the frame was created for (the `origin` URL parameter the server checked against the client ID), parses as a
 * host-to-frame message and carries this frame's instance id. It posts only to that origin, never to '*'.
 */
import type { FrameToHostMessage, HostToFrameMessage } from '@svc/protocol';
import { HostToFrameMessageWire, parseWith, POST_MESSAGE_SOURCES } from '@svc/protocol/light';

type Outgoing = FrameToHostMessage extends infer M ? (M extends unknown ? Omit<M, 'source' | 'instanceId'> : never) : never;

export class HostLink {
  readonly #listener = (event: MessageEvent): void => {
    if (event.source !== this.parentWindow || event.origin !== this.parentOrigin) return;
    const parsed = parseWith(HostToFrameMessageWire, event.data);
    if (!parsed.ok || parsed.value.instanceId !== this.instanceId) return;
    this.onMessage(parsed.value);
  };

  constructor(
    private readonly parentWindow: Window,
    private readonly parentOrigin: string,
    private readonly instanceId: string,
    private readonly onMessage: (message: HostToFrameMessage) => void,
  ) {}

  start(self: Window): void {
    self.addEventListener('message', this.#listener);
  }

  stop(self: Window): void {
    self.removeEventListener('message', this.#listener);
  }

  post(message: Outgoing): void {
    const full = { source: POST_MESSAGE_SOURCES.frame, instanceId: this.instanceId, ...message } as FrameToHostMessage;
    this.parentWindow.postMessage(full, this.parentOrigin);
  }
}

/** The `origin` URL parameter, if it is exactly an http(s) origin (no path, no trailing slash). */
export function parentOriginFrom(search: string): string | null {
  const value = new URLSearchParams(search).get('origin');
  if (!value) return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value ? value : null;
  } catch {
    return null; // not a URL: the frame stays inert
  }
}

/** The instance id from the URL hash (`#instance=<id>`), if it has the protocol's shape. */
export function instanceIdFrom(hash: string): string | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('instance');
  return value && /^[A-Za-z0-9_-]{8,64}$/.test(value) ? value : null;
}
