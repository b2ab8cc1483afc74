import * as paths from '../endpoint-paths';
import { HtmlPageSchema, StickerNextSchema } from '../channels';
import type { EndpointDescription } from './description';

/** A device's sticker: the public link a consumer scans, and what it opens now. */
export const STICKER_ENDPOINTS = {
  openSticker: {
    operationId: 'openSticker',
    method: 'get',
    path: paths.openStickerPath,
    tag: 'Consumer',
    summary: "A device's sticker",
    description:
      "The public link printed on a device's sticker (`stickerUrl`). 303 to the hosted page of the device's newest pending " +
      'transaction; when none is waiting, a "No payment is waiting" page (200) that moves on by itself once the cashier creates one ' +
      '(it polls `GET /s/{stickerCode}/next`). Cancelled, paid and timed-out transactions are never opened. An unknown sticker ' +
      'answers a 404 page.',
    auth: ['none'],
    response: { status: 200, description: 'The waiting page', schema: HtmlPageSchema, contentType: 'text/html' },
    pageAnswers: [
      { status: 303, description: "To the hosted page of the device's newest pending transaction", redirect: true },
      { status: 404, description: 'The 404 page of a sticker nobody issued', contentType: 'text/html' },
    ],
    errors: ['rate_limited'],
    idempotent: false,
  },
  nextStickerPayment: {
    operationId: 'nextStickerPayment',
    method: 'get',
    path: paths.nextStickerPaymentPath,
    tag: 'Consumer',
    summary: 'What a sticker opens now',
    description: "The payment page the sticker would open now, or `waiting`. The sticker's waiting page asks this every 2 seconds.",
    auth: ['none'],
    response: { status: 200, description: 'The next payment, or waiting', schema: StickerNextSchema },
    errors: ['not_found', 'rate_limited'],
    idempotent: false,
  },
} as const satisfies Record<string, EndpointDescription>;
