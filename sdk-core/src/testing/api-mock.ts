/** The /sdk API in the browser through msw's service worker; the card frame's own fetches go through it too. */
import { http, HttpResponse, passthrough } from 'msw';
import { setupWorker } from 'msw/browser';
import { answerPayment, answerSession } from './api-fixtures.js';
import { CHALLENGE_CARDS } from './fake-bank.mjs';

export interface RecordedCall {
  url: string;
  authorization: string | null;
  origin: string | null;
  body: Record<string, unknown>;
}

/** Every /sdk call the mock answered, for assertions. */
export const calls: RecordedCall[] = [];
let sessionCounter = 0;

const reply = (answer: { status: number; body: unknown }) =>
  HttpResponse.json(answer.body as Record<string, unknown>, {
    status: answer.status,
    headers: answer.status === 200 ? {} : { 'content-type': 'application/problem+json' },
  });

async function record(request: Request): Promise<RecordedCall> {
  const call: RecordedCall = {
    url: request.url,
    authorization: request.headers.get('authorization'),
    origin: request.headers.get('origin'),
    body: (await request.clone().json()) as Record<string, unknown>,
  };
  calls.push(call);
  return call;
}

export const handlers = [
  http.post('*/sdk/sessions', async ({ request }) => {
    const call = await record(request);
    sessionCounter += 1;
    return reply(answerSession(call.body, sessionCounter));
  }),
  http.post('*/sdk/sessions/:sessionId/payments', async ({ request }) => {
    const call = await record(request);
    // A challenge card goes on to the test server, which holds the bank's side (fake-bank.mjs).
    const card = (call.body['card'] as { number?: string } | undefined)?.number;
    if (card && card in CHALLENGE_CARDS) return passthrough();
    return reply(answerPayment(call.body, call.authorization));
  }),
  http.post('*/authentication/:authenticationId/cancel', async ({ request }) => {
    calls.push({ url: request.url, authorization: request.headers.get('authorization'), origin: request.headers.get('origin'), body: {} });
    return passthrough();
  }),
];

export const worker = setupWorker(...handlers);
let started: Promise<unknown> | null = null;

export function startApiMock(): Promise<unknown> {
  started ??= worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  return started;
}

export function resetApiMock(): void {
  worker.resetHandlers();
  calls.length = 0;
}

export { http, HttpResponse };
