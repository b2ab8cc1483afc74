import { API_ERROR_CODES, API_ERRORS, openApiOperations, PROBLEM_CONTENT_TYPE, type OpenApiDocument } from '@svc/protocol';
import { operationAnchor } from './docs-page';
import { anchorId, escapeHtml, htmlPage, inlineMarkdown, methodBadge } from './html';
import { processorDeclineSection } from './processor-tables';

/**
 * The error reference (`GET /docs/errors`): one row per code, with `id="<code>"`, so a problem's
 * `type` (`/docs/errors#<code>`) lands on its entry: its status, title, cause and what to do (protocol's API_ERRORS).
 */
export function renderErrorReference(document: OpenApiDocument): string {
  const operations = openApiOperations(document);
  const header = [
    `<h1>Error reference</h1>`,
    `<p>${escapeHtml(document.info.title)} · <a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI 3.1 document</a></p>`,
  ].join('\n');

  const rows = [...API_ERROR_CODES]
    .sort((a, b) => API_ERRORS[a].status - API_ERRORS[b].status)
    .map((code) => {
      const answeredBy = operations.filter((entry) => entry.operation['x-svc-error-codes'].includes(code));
      const endpoints =
        answeredBy.length === 0
          ? '<span class="muted">Not tied to one endpoint</span>'
          : `<ul>${answeredBy
              .map(
                (entry) =>
                  `<li><a href="/docs#${operationAnchor(entry.operation.operationId)}">${methodBadge(entry.method)} <code>${escapeHtml(entry.path)}</code></a></li>`,
              )
              .join('')}</ul>`;
      const { status, title, cause, fix } = API_ERRORS[code];
      return (
        `<tr id="${anchorId(code)}"><th scope="row"><code>${escapeHtml(code)}</code></th><td>${status}</td>` +
        `<td>${escapeHtml(title)}</td><td>${inlineMarkdown(cause)}</td><td>${inlineMarkdown(fix)}</td><td>${endpoints}</td></tr>`
      );
    });

  const main = [
    `<p>Every error is an RFC 9457 problem details object sent as <code>${escapeHtml(PROBLEM_CONTENT_TYPE)}</code>:</p>`,
    '<pre><code>{ "type": "/docs/errors#card_declined", "title": "The card was declined", "status": 402,\n' +
      '  "detail": "…what to do about it…", "code": "card_declined", "requestId": "…" }</code></pre>',
    '<p>Switch on <code>code</code>: it is stable, and new codes may be added. <code>title</code> and <code>detail</code> are for people. ' +
      '<code>validation_failed</code> also carries <code>errors</code>, a list of <code>{ path, message }</code>. ' +
      'Every response has an <code>X-Request-Id</code> header; quote it when you ask for help.</p>',
    '<div class="table-wrap"><table><caption>Error codes</caption>',
    '<thead><tr><th scope="col">code</th><th scope="col">HTTP status</th><th scope="col">Meaning</th>' +
      '<th scope="col">Cause</th><th scope="col">What to do</th><th scope="col">Answered by</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table></div>`,
    processorDeclineSection(),
  ].join('\n');

  return htmlPage({ title: `Error reference · ${document.info.title}`, header, main });
}
