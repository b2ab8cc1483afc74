import {
  API_ERRORS,
  AUTH_DESCRIPTIONS,
  guideFor,
  openApiOperations,
  TRANSACTION_STATUSES,
  type ApiErrorCode,
  type EndpointAuth,
  type OpenApiDocument,
  type OpenApiOperationEntry,
  type OpenApiParameter,
} from '@svc/protocol';
import { anchorId, escapeHtml, htmlPage, inlineMarkdown, methodBadge, paragraphs } from './html';
import { processorCapabilitySection } from './processor-tables';
import { fieldRows, refName, type FieldContext, type FieldRow } from './schema-fields';

/** Components with a section of their own on the page; fields of these type link there instead of repeating them. */
const STANDALONE_SCHEMAS = [
  {
    name: 'Transaction',
    title: 'The transaction object',
    intro: 'What every transaction endpoint and every callback returns. Every field is always present, `null` where unknown.',
  },
  {
    name: 'ProblemDetails',
    title: 'Problem details',
    intro: 'The body of every error response (`application/problem+json`).',
    seeAlso: '<p>Every <code>code</code>, its HTTP status and the endpoints that answer it: <a href="/docs/errors">error reference</a>.</p>',
  },
] as const satisfies readonly { name: string; title: string; intro: string; seeAlso?: string }[];

export function operationAnchor(operationId: string): string {
  return `op-${anchorId(operationId)}`;
}

/** The API reference page (`GET /docs`), rendered from the OpenAPI document the server publishes. */
export function renderApiReference(document: OpenApiDocument): string {
  const context: FieldContext = {
    components: document.components.schemas,
    standalone: new Set(STANDALONE_SCHEMAS.map((s) => s.name).filter((name) => document.components.schemas[name])),
  };
  const operations = openApiOperations(document);
  const serverUrl = document.servers[0]?.url ?? '';
  const sandbox = document.servers[0]?.description === 'Sandbox';
  const guide = guideFor(sandbox);

  const header = [
    `<h1>${escapeHtml(document.info.title)}</h1>`,
    `<p>Version ${escapeHtml(document.info.version)} · Base URL <code>${escapeHtml(serverUrl)}</code>` +
      `${sandbox ? ' · <strong>Sandbox</strong>: test cards and a test clock, no real money' : ''}</p>`,
    `<p>Machine-readable: <a href="/openapi.json">OpenAPI 3.1 document</a> · <a href="/docs/errors">Error reference</a></p>`,
  ].join('\n');

  const nav = [
    '<h2>Contents</h2>',
    '<ul>',
    ...guide.map((s) => `<li><a href="#${anchorId(s.id)}">${escapeHtml(s.title)}</a></li>`),
    '<li><a href="#statuses">Transaction statuses</a></li>',
    '<li><a href="#processors">Processors and what they can do</a></li>',
    ...STANDALONE_SCHEMAS.filter((s) => context.standalone.has(s.name)).map((s) => `<li><a href="#schema-${s.name}">${escapeHtml(s.title)}</a></li>`),
    ...document.tags.map((tag) => {
      const items = operations
        .filter((entry) => entry.operation.tags.includes(tag.name))
        .map((entry) => `<li><a href="#${operationAnchor(entry.operation.operationId)}">${methodBadge(entry.method)} ${escapeHtml(entry.path)}</a></li>`);
      return `<li><a href="#tag-${anchorId(tag.name)}">${escapeHtml(tag.name)}</a><ul>${items.join('')}</ul></li>`;
    }),
    '</ul>',
  ].join('\n');

  const main = [
    `<p>Every endpoint of the service, generated from the schemas the server itself validates with. Bodies are JSON.</p>`,
    ...guide.map((section) =>
      [
        `<section aria-labelledby="${anchorId(section.id)}">`,
        `<h2 id="${anchorId(section.id)}">${escapeHtml(section.title)}</h2>`,
        `<p>${inlineMarkdown(section.intro)}</p>`,
        `<ul>${section.points.map((p) => `<li>${inlineMarkdown(p)}</li>`).join('')}</ul>`,
        section.id === 'errors' ? '<p>Every code, its HTTP status and the endpoints that answer it: <a href="/docs/errors">error reference</a>.</p>' : '',
        '</section>',
      ].join('\n'),
    ),
    renderStatuses(),
    processorCapabilitySection(),
    ...STANDALONE_SCHEMAS.filter((s) => context.standalone.has(s.name)).map((s) => {
      const schema = document.components.schemas[s.name] ?? {};
      return [
        `<section aria-labelledby="schema-${s.name}">`,
        `<h2 id="schema-${s.name}">${escapeHtml(s.title)}</h2>`,
        `<p>${inlineMarkdown(s.intro)}</p>`,
        'seeAlso' in s ? s.seeAlso : '',
        fieldTable(fieldRows(schema, { ...context, standalone: new Set() }), `Fields of ${s.name}`, 'Always present'),
        '</section>',
      ].join('\n');
    }),
    ...document.tags.map((tag) =>
      [
        `<section aria-labelledby="tag-${anchorId(tag.name)}">`,
        `<h2 id="tag-${anchorId(tag.name)}">${escapeHtml(tag.name)}</h2>`,
        `<p>${inlineMarkdown(tag.description)}</p>`,
        ...operations.filter((entry) => entry.operation.tags.includes(tag.name)).map((entry) => renderOperation(entry, context)),
        '</section>',
      ].join('\n'),
    ),
  ].join('\n');

  return htmlPage({ title: `${document.info.title} reference`, header, nav, main });
}

function renderStatuses(): string {
  const rows = TRANSACTION_STATUSES.map(
    (s) => `<tr><td>${s.status}</td><th scope="row"><code>${escapeHtml(s.statusName)}</code></th><td>${inlineMarkdown(s.meaning)}</td></tr>`,
  );
  return [
    '<section aria-labelledby="statuses">',
    '<h2 id="statuses">Transaction statuses</h2>',
    "<p>A transaction's <code>status</code> is the number; <code>statusName</code> is its name. Moves not in this table are refused with 409.</p>",
    '<div class="table-wrap"><table><caption>Status codes</caption>',
    '<thead><tr><th scope="col">status</th><th scope="col">statusName</th><th scope="col">Meaning</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table></div>`,
    '</section>',
  ].join('\n');
}

function renderOperation({ path, method, operation }: OpenApiOperationEntry, context: FieldContext): string {
  const id = operationAnchor(operation.operationId);
  // The document's description ends with a "Callers" paragraph for OpenAPI viewers; this page shows callers in the list below.
  const description = operation.description
    .split(/\n{2,}/)
    .filter((p) => !p.startsWith('**Callers:**'))
    .join('\n\n');
  const callers = operation['x-svc-auth'].map((kind) => inlineMarkdown(AUTH_DESCRIPTIONS[kind as EndpointAuth] ?? kind));
  const pathParameters = (operation.parameters ?? []).filter((p): p is OpenApiParameter => 'in' in p && p.in === 'path');
  const queryParameters = (operation.parameters ?? []).filter((p): p is OpenApiParameter => 'in' in p && p.in === 'query');
  const details = [
    `<dt>Who may call</dt><dd>${callers.join('; ')}</dd>`,
    `<dt>Idempotency-Key</dt><dd>${operation['x-svc-idempotent'] ? 'Accepted (see <a href="#idempotency">Idempotency</a>)' : 'Not used (the call changes nothing)'}</dd>`,
    ...pathParameters.map((p) => `<dt>Path parameter <code>${escapeHtml(p.name)}</code></dt><dd>${inlineMarkdown(p.description)}</dd>`),
    ...queryParameters.map(
      (p) =>
        `<dt>Query parameter <code>${escapeHtml(p.style === 'deepObject' ? `${p.name}[key]` : p.name)}</code></dt><dd>${inlineMarkdown(p.description)}</dd>`,
    ),
    ...(operation['x-svc-sandbox-only'] ? ['<dt>Availability</dt><dd>Sandbox mode only</dd>'] : []),
  ];
  const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
  return [
    `<section class="op" id="${id}" aria-labelledby="${id}-title">`,
    `<h3 id="${id}-title">${methodBadge(method)} <code>${escapeHtml(path)}</code></h3>`,
    `<p><strong>${escapeHtml(operation.summary)}.</strong></p>`,
    paragraphs(description),
    `<dl>${details.join('\n')}</dl>`,
    renderRequestBody(operation, context),
    success ? renderSuccess(operation.operationId, success, context) : '',
    renderErrors(operation['x-svc-error-codes'] as ApiErrorCode[]),
    '</section>',
  ].join('\n');
}

function renderRequestBody(operation: OpenApiOperationEntry['operation'], context: FieldContext): string {
  const body = operation.requestBody;
  if (!body) return '<h4>Request body</h4>\n<p>None.</p>';
  const schema = body.content['application/json']?.schema ?? {};
  const rows = fieldRows(schema, context);
  const note = body.required ? '' : '<p class="muted">The body may be left out.</p>';
  return `<h4>Request body</h4>\n${note}\n${fieldTable(rows, `Request body of ${operation.operationId}`, 'Required')}`;
}

function renderSuccess(
  operationId: string,
  [status, response]: [string, OpenApiOperationEntry['operation']['responses'][string]],
  context: FieldContext,
): string {
  const schema = response.content?.['application/json']?.schema ?? {};
  const name = refName(schema);
  const heading = `<h4>Response ${escapeHtml(status)}</h4>\n<p>${inlineMarkdown(response.description)}.</p>`;
  if (name && context.standalone.has(name)) return `${heading}\n<p>The body is <a href="#schema-${name}">the ${name.toLowerCase()} object</a>.</p>`;
  return `${heading}\n${fieldTable(fieldRows(schema, context), `Response body of ${operationId}`, 'Always present')}`;
}

function renderErrors(codes: ApiErrorCode[]): string {
  if (codes.length === 0) return '';
  const sorted = [...codes].sort((a, b) => API_ERRORS[a].status - API_ERRORS[b].status);
  const rows = sorted.map(
    (code) =>
      `<tr><td>${API_ERRORS[code].status}</td><td><a href="/docs/errors#${anchorId(code)}"><code>${escapeHtml(code)}</code></a></td>` +
      `<td>${escapeHtml(API_ERRORS[code].title)}</td></tr>`,
  );
  return [
    '<h4>Errors</h4>',
    '<div class="table-wrap"><table><caption class="muted">Problem details this endpoint may answer with</caption>',
    '<thead><tr><th scope="col">HTTP</th><th scope="col">code</th><th scope="col">Meaning</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table></div>`,
  ].join('\n');
}

function fieldTable(rows: FieldRow[], caption: string, requiredLabel: string): string {
  if (rows.length === 0) return '<p>An empty JSON object.</p>';
  const body = rows.map((row) => {
    const type = row.typeLink ? `<a href="#schema-${anchorId(row.typeLink)}"><code>${escapeHtml(row.type)}</code></a>` : `<code>${escapeHtml(row.type)}</code>`;
    return `<tr><th scope="row"><code>${escapeHtml(row.name)}</code></th><td>${type}</td><td>${row.required ? 'yes' : 'no'}</td><td>${inlineMarkdown(row.description)}</td></tr>`;
  });
  return [
    `<div class="table-wrap"><table><caption class="muted">${escapeHtml(caption)}</caption>`,
    `<thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">${escapeHtml(requiredLabel)}</th><th scope="col">Description</th></tr></thead>`,
    `<tbody>${body.join('\n')}</tbody></table></div>`,
  ].join('\n');
}
