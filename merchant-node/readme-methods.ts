/**
 * The README's table of the client's methods, made from the endpoint table (the one place the endpoints are written):
 * one row per method, with its arguments, its endpoint and the endpoint's summary. `pnpm --filter @svc/node readme`
 * writes it between the README's markers; src/readme.test.ts fails when the README's table is not this one.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { ENDPOINT, type OperationId } from '@svc/protocol';
import { MERCHANT_ROUTES, type MerchantRoute } from './src/endpoint-table';

export const README = new URL('./README.md', import.meta.url);
export const START = '<!-- The methods: made by readme-methods.ts from the endpoint table; do not edit by hand. -->';
export const END = '<!-- End of the methods. -->';

/** The method's arguments: the path parameters, the query, the body (`body?` when it may be left out). */
function call(id: OperationId, route: MerchantRoute): string {
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
  const request = (ENDPOINT[id] as { request?: { safeParse(value: unknown): { success: boolean } } }).request;
  const body = route.hasBody ? [request?.safeParse({}).success ? 'body?' : 'body'] : [];
  const args = [...(params.length ? [`{ ${params.join(', ')} }`] : []), ...(route.hasQuery ? ['query?'] : []), ...body];
  return `\`${id}(${args.join(', ')})\``;
}

/** The table, as markdown lines. */
export function methodTable(): string[] {
  const rows = (Object.entries(MERCHANT_ROUTES) as [OperationId, MerchantRoute][]).map(([id, route]) => {
    const endpoint = ENDPOINT[id];
    const notes = [
      endpoint.summary,
      ...('query' in endpoint && 'nextCursor' in (endpoint.response.schema as { shape?: object }).shape! ? ['a page; `for await` iterates every page'] : []),
      ...(endpoint.auth.every((who) => who !== 'merchant') ? ['merchant key only'] : []),
      ...('sandboxOnly' in endpoint && endpoint.sandboxOnly ? ['sandbox only'] : []),
    ];
    return `| ${call(id, route)} | \`${route.method} ${route.path}\` | ${notes.join('; ')} |`;
  });
  return ['| method | endpoint | what |', '|---|---|---|', ...rows];
}

/** The README with its table replaced by `methodTable()`. */
export function withMethodTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no "${START}" … "${END}" block`);
  return `${readme.slice(0, start + START.length)}\n${methodTable().join('\n')}\n${readme.slice(end)}`;
}

if (process.argv[1] && new URL(`file://${process.argv[1]}`).href === import.meta.url) {
  await writeFile(README, withMethodTable(await readFile(README, 'utf8')));
}
