/**
 * The test page as the card frame's host: it mounts the built card frame (dist/card-frame.html + .js, served at
 * /sdk/elements/1.1.1/), records what the frame posts, and sends it messages as Elements' element does.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { FrameToHostMessage } from '@svc/protocol';
import { FrameToHostMessageSchema, HostToFrameMessageSchema } from '@svc/protocol';
import { z } from 'zod';
import { waitFor } from '@svc/sdk-core/testing/helpers';

export const HOST = 'svc-elements-host';
export const frameToHost = z.union(FrameToHostMessageSchema.options);

export let iframe: HTMLIFrameElement;
export let instanceId: string;
export let received: { origin: string; data: FrameToHostMessage }[];
let listener: (event: MessageEvent) => void;
let requests = 0;

export async function mountFrame(origin = location.origin, extraQuery = ''): Promise<void> {
  instanceId = `test${Math.random().toString(36).slice(2, 12)}`;
  received = [];
  listener = (event) => {
    if (event.source === iframe.contentWindow) received.push({ origin: event.origin, data: event.data as FrameToHostMessage });
  };
  window.addEventListener('message', listener);
  iframe = document.createElement('iframe');
  iframe.title = 'card frame under test';
  iframe.style.width = '400px';
  iframe.src = `/sdk/elements/1.1.1/card-frame.html?clientId=ck_test&origin=${encodeURIComponent(origin)}${extraQuery}#instance=${instanceId}`;
  document.body.append(iframe);
  await new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
}

export const messagesOf = <T extends FrameToHostMessage['type']>(type: T) =>
  received.filter((entry) => entry.data.type === type).map((entry) => entry.data as Extract<FrameToHostMessage, { type: T }>);
export const lastValidation = () => messagesOf('validation').at(-1);
export const frameDoc = () => iframe.contentDocument!;
export const input = (id: string) => frameDoc().getElementById(id) as HTMLInputElement;

export function send(message: Record<string, unknown>): void {
  const full = { source: HOST, instanceId, ...message };
  expect(HostToFrameMessageSchema.safeParse(full).success, 'the test sends valid messages').to.equal(true);
  iframe.contentWindow!.postMessage(full, location.origin);
}

export function init(): void {
  send({ type: 'init', sessionId: 'ses_1', sessionToken: 'tok_1', apiBase: location.origin, debug: false });
}

export async function submit(extra: Record<string, unknown> = {}) {
  requests += 1;
  const requestId = `r${requests}`;
  send({ type: 'submit', requestId, ...extra });
  return waitFor(() => messagesOf('result').find((result) => result.requestId === requestId), `result ${requestId}`);
}

export async function type(field: string, text: string): Promise<void> {
  input(field).focus();
  await sendKeys({ type: text });
}

/** As a paste would: quicker than key presses, for the tests that are not about typing. */
export function paste(field: string, text: string): void {
  const frameWindow = iframe.contentWindow as Window & typeof globalThis;
  input(field).focus();
  input(field).value = text;
  input(field).dispatchEvent(new frameWindow.InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: text }));
}

export async function fillValidCard(): Promise<void> {
  paste('number', '4242424242424242');
  paste('expiry', '1230');
  paste('cvc', '737');
}

/** Removes the frame under test and stops listening to it. */
export function unmountFrame(): void {
  window.removeEventListener('message', listener);
  iframe.remove();
}
