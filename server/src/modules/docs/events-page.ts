import { ALL_EVENTS, EVENT_LOG_DAYS, WEBHOOK_EVENT_TYPES, type OpenApiDocument, type WebhookEventType } from '@svc/protocol';
import { anchorId, escapeHtml, htmlPage, inlineMarkdown } from './html';

/** The status, and the refund when the type carries one, of each type's example. */
const EXAMPLES: Record<WebhookEventType, { status: number; refund?: 'pending' | 'succeeded' }> = {
  'transaction.updated': { status: 5 },
  'transaction.approved': { status: 0 },
  'transaction.declined': { status: 2 },
  'transaction.captured': { status: 7 },
  'transaction.voided': { status: 8 },
  'transaction.refunded': { status: 13, refund: 'succeeded' },
  'refund.updated': { status: 0, refund: 'pending' },
};

/** An example event of `type`, as an endpoint gets it (the transaction object abridged to a few of its fields). */
export function exampleEvent(type: WebhookEventType): string {
  const { status, refund } = EXAMPLES[type];
  const at = '2026-03-01T09:30:00.000Z';
  const lines = [
    '{',
    '  "eventId": "0f8e3c52-7d1a-4b6e-9c3f-5a2b8d4e6f10",',
    `  "type": "${type}",`,
    `  "createdAt": "${at}",`,
    '  "data": {',
    '    "transaction": {',
    '      "TransactionNumber": "T2603010930AB12",',
    `      "status": ${status},`,
    '      "amount": "10.00",',
    '      "currency": "USD",',
    '      "sequence": 3,',
    '      "…": "every field of the transaction object, as GET /transactions/{transactionNumber} answers it"',
    `    }${refund ? ',' : ''}`,
  ];
  if (refund) {
    lines.push(
      '    "refund": {',
      '      "refundId": "re_8d4e6f100f8e3c52",',
      '      "amountCents": 400,',
      '      "currency": "USD",',
      `      "status": "${refund}",`,
      '      "reason": "requested_by_customer",',
      '      "description": null,',
      '      "failureCode": null,',
      `      "createdAt": "${at}",`,
      `      "updatedAt": "${at}"`,
      '    }',
    );
  }
  lines.push('  }', '}');
  return lines.join('\n');
}

/**
 * The event reference (`GET /docs/events`): every event type a webhook endpoint may enable, when it is sent, and an
 * example of it; how an endpoint gets and verifies its events, and the event log.
 */
export function renderEventReference(document: OpenApiDocument): string {
  const header = [
    `<h1>Event reference</h1>`,
    `<p>${escapeHtml(document.info.title)} · <a href="/docs">API reference</a> · <a href="/docs/errors">Error reference</a> · ` +
      `<a href="/openapi.json">OpenAPI 3.1 document</a></p>`,
  ].join('\n');
  const nav = `<ul>${WEBHOOK_EVENT_TYPES.map(({ type }) => `<li><a href="#${anchorId(type)}"><code>${escapeHtml(type)}</code></a></li>`).join('')}</ul>`;
  const intro = [
    '<p>A webhook endpoint (<code>POST /webhook-endpoints</code>) gets every event of the types it enabled, or of every type with ' +
      `<code>${ALL_EVENTS}</code>, as a <code>POST</code> of the event as JSON. A disabled endpoint gets nothing. Deliveries are retried ` +
      "on the callbacks' schedule until your endpoint answers 2xx; 410 stops them.</p>",
    "<p>Each event is signed the Standard Webhooks way with the endpoint's own secret (the <code>whsec_</code> secret its creation " +
      'answered): <code>webhook-id</code> is the <code>eventId</code>, <code>webhook-timestamp</code> the unix seconds of the attempt, and ' +
      '<code>webhook-signature</code> <code>v1,</code> and the base64 of HMAC-SHA256, keyed with the base64-decoded part of the secret ' +
      'after <code>whsec_</code>, over <code>webhook-id.webhook-timestamp.body</code>. Verify it over the raw body before reading it, and ' +
      'keep the <code>eventId</code>s you handled to drop a repeat.</p>',
    `<p><code>GET /events</code> lists every event of the last ${EVENT_LOG_DAYS} days, newest first, whether an endpoint got it or not; ` +
      '<code>POST /events/{eventId}/redeliver</code> sends one to an endpoint again.</p>',
  ].join('\n');
  const sections = WEBHOOK_EVENT_TYPES.map(
    ({ type, when }) =>
      `<section aria-labelledby="${anchorId(type)}"><h2 id="${anchorId(type)}"><code>${escapeHtml(type)}</code></h2>` +
      `<p>${inlineMarkdown(when)}</p>` +
      // Focusable, so a keyboard can scroll an example wider than the page.
      `<figure><figcaption>Example</figcaption><pre tabindex="0"><code>${escapeHtml(exampleEvent(type))}</code></pre></figure></section>`,
  );
  return htmlPage({ title: `Event reference · ${document.info.title}`, header, nav, main: [intro, ...sections].join('\n') });
}
