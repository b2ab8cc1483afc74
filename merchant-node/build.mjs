// Builds @svc/node (run with `node --import tsx build.mjs`: it reads protocol's TypeScript):
// - dist/index.mjs and dist/index.cjs: one bundle each, no imports but Node's globals. The endpoint table module is
//   evaluated here and bundled as plain data, so neither zod nor any schema reaches the package.
// - dist/types/*.d.ts: tsc's declarations of the package's own modules, and wire.d.ts generated from the service's
//   OpenAPI document (openapi-typescript) plus the websocket messages, so the types need no other package either.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, WsClientMessageSchema, WsServerMessageSchema } from '@svc/protocol';
import openapiTS, { astToString } from 'openapi-typescript';
import { z } from 'zod';
import { bundleBothFormats, standaloneDeclarationFiles } from '../scripts/package-build.mjs';
import { standaloneDeclarations, typeProgram } from '../scripts/standalone-types.mjs';
import { MERCHANT_ROUTES } from './src/endpoint-table.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The listings whose query the client takes in its own types (src/list-queries.ts) rather than as the query's text. */
const CLIENT_QUERIES = ['listTransactions', 'listAuditLog', 'listEvents'];
/** The client's own type of each listing's query. */
const CLIENT_QUERY_TYPES = { listTransactions: 'ListTransactionsParams', listAuditLog: 'AuditLogParams', listEvents: 'ListEventsParams' };
const dist = path.join(here, 'dist');
const { version } = JSON.parse(await readFile(path.join(here, 'package.json'), 'utf8'));

await rm(dist, { recursive: true, force: true });

const endpointTableAsData = {
  name: 'endpoint-table-as-data',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]endpoint-table\.ts$/ }, () => ({
      contents: `export const MERCHANT_ROUTES = ${JSON.stringify(MERCHANT_ROUTES)};\n`,
      loader: 'js',
    }));
  },
};

await bundleBothFormats({ dir: here, entry: 'src/index.ts', platform: 'neutral', banner: `// @svc/node ${version}`, plugins: [endpointTableAsData] });

// The package's own declarations: wire.d.ts replaced by the types generated from the OpenAPI document, and the modules
// that re-export protocol's (the statuses, the listings' queries) by standalone declarations printed from them.
await standaloneDeclarationFiles({
  dir: here,
  typesDir: path.join(dist, 'types'),
  replace: {
    'wire.d.ts': await wireDeclarations(),
    ...protocolDeclarations({
      'status.ts': ['Status', 'statusName', 'TransactionStatusCode', 'TransactionStatusName'],
      'list-queries.ts': ['ListTransactionsParams', 'AuditLogParams', 'ListEventsParams'],
    }),
  },
});

/** For each source module (name → the names it re-exports from protocol), its declarations, printed to stand alone. */
function protocolDeclarations(modules) {
  const files = Object.keys(modules).map((file) => path.join(here, 'src', file));
  const program = typeProgram(path.join(here, 'tsconfig.json'), files);
  return Object.fromEntries(
    Object.entries(modules).map(([file, names]) => [
      file.replace(/\.ts$/, '.d.ts'),
      standaloneDeclarations(program, { types: names.map((name) => ({ file: path.join(here, 'src', file), name })) }),
    ]),
  );
}

/** The wire types from the OpenAPI document (every request, answer and the callback) and the websocket messages. */
async function wireDeclarations() {
  const document = buildOpenApiDocument({ serverUrl: 'http://localhost:8080', sandbox: true });
  const websocket = { WsClientMessage: WsClientMessageSchema, WsServerMessage: WsServerMessageSchema };
  for (const [name, schema] of Object.entries(websocket)) {
    const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
    document.components.schemas[name] = json;
  }
  const generated = astToString(await openapiTS(document, { alphabetize: false }));
  const schemaNames = Object.keys(document.components.schemas);
  const sourceNames = await sourceWireNames();
  const aliases = Object.fromEntries(schemaNames.map((name) => [name, `components['schemas']['${name}']`]));
  for (const name of sourceNames) {
    if (!aliases[name] && !['ApiErrorCode', 'ClientQueries', 'MerchantOperationId', 'MerchantOperations'].includes(name)) {
      throw new Error(`src/wire.ts exports ${name}, which the OpenAPI document has no schema for`);
    }
  }
  const operations = Object.entries(MERCHANT_ROUTES).map(([id, route]) => {
    const endpoint = document.paths[route.path]?.[route.method.toLowerCase()];
    const success = Object.keys(endpoint.responses).find((status) => status.startsWith('2'));
    const params = route.path.includes('{') ? `operations['${id}']['parameters']['path']` : '{}';
    const query = CLIENT_QUERIES.includes(id)
      ? `ClientQueries['${id}']`
      : route.hasQuery
        ? `NonNullable<operations['${id}']['parameters']['query']>`
        : 'undefined';
    const body = route.hasBody ? `NonNullable<operations['${id}']['requestBody']>['content']['application/json']` : 'undefined';
    return `  ${id}: {\n    params: ${params};\n    query: ${query};\n    body: ${body};\n    result: operations['${id}']['responses'][${success}]['content']['application/json'];\n  };`;
  });
  return [
    "import type { AuditLogParams, ListEventsParams, ListTransactionsParams } from './list-queries';",
    '/**',
    ' * The wire types of the payment service, generated from its OpenAPI document (GET /openapi.json) and websocket',
    ` * messages by @svc/node ${version}'s build. \`paths\`, \`webhooks\`, \`components\` and \`operations\` are openapi-typescript's.`,
    ' */',
    generated.trim(),
    '',
    ...schemaNames.map((name) => `export type ${name} = ${aliases[name]};`),
    '',
    '/** Every error `code` the service answers with. */',
    "export type ApiErrorCode = components['schemas']['ProblemDetails']['code'];",
    "/** An endpoint a merchant's key may call whose answer is JSON: the client has a method for each. */",
    `export type MerchantOperationId = ${Object.keys(MERCHANT_ROUTES)
      .map((id) => `'${id}'`)
      .join(' | ')};`,
    "/** The listings' queries as the client takes them (numbers, dates, lists), by operation. */",
    `export type ClientQueries = { ${CLIENT_QUERIES.map((id) => `${id}: ${CLIENT_QUERY_TYPES[id]}`).join('; ')} };`,
    '/** Per operation: its path parameters, its query (undefined when it takes none), its request body (likewise) and its answer. */',
    'export type MerchantOperations = {',
    ...operations,
    '};',
    '',
  ].join('\n');
}

/** The names src/wire.ts exports: the published wire.d.ts must have each of them. */
async function sourceWireNames() {
  const source = await readFile(path.join(here, 'src/wire.ts'), 'utf8');
  const reExported = [...source.matchAll(/export type \{([^}]+)\}/g)].flatMap(([, list]) =>
    list
      .split(',')
      .map((entry) =>
        entry
          .trim()
          .split(/\s+as\s+/)
          .pop(),
      )
      .filter(Boolean),
  );
  const declared = [...source.matchAll(/export type (\w+)/g)].map(([, name]) => name);
  return [...reExported, ...declared];
}
