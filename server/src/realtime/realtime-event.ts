import { toBrowserTransaction, type Transaction } from '@svc/protocol';
import * as ws from 'ws';
import type { ObjectForm } from './audience';

/** ws's own framing (`Sender.frame`, exported by ws but not by its type declarations). */
const { Sender } = ws as unknown as {
  Sender: { frame(data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[] };
};
const TEXT_OPCODE = 1;

/**
 * One transaction event on its way to sockets. The message text is built once per view and shared by every
 * subscriber: the full view splices the stored payload in as it is; the browser view parses it once. So is its
 * websocket frame: encoded and framed once, the same bytes are written to every subscriber's socket.
 */
export class RealtimeEvent {
  readonly #messages = new Map<ObjectForm, string>();
  readonly #frames = new Map<ObjectForm, Buffer>();

  constructor(
    readonly eventId: string,
    readonly transactionNumber: string,
    readonly sequence: number,
    readonly payload: string,
  ) {}

  message(view: ObjectForm): string {
    let text = this.#messages.get(view);
    if (text === undefined) {
      const transaction = view === 'full' ? this.payload : JSON.stringify(toBrowserTransaction(JSON.parse(this.payload) as Transaction));
      text = `{"type":"transaction.updated","eventId":${JSON.stringify(this.eventId)},"sequence":${this.sequence},"transaction":${transaction}}`;
      this.#messages.set(view, text);
    }
    return text;
  }

  /** The message as one unmasked, unfragmented text frame (what a server sends), header and payload in one buffer. */
  frame(view: ObjectForm): Buffer {
    let frame = this.#frames.get(view);
    if (frame === undefined) {
      frame = Buffer.concat(Sender.frame(Buffer.from(this.message(view)), { fin: true, opcode: TEXT_OPCODE, mask: false, readOnly: true, rsv1: false }));
      this.#frames.set(view, frame);
    }
    return frame;
  }
}
