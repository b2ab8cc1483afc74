import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import route from '@stoplight/prism-http/dist/router';
import { validateInput, validateOutput, validateSecurity } from '@stoplight/prism-http/dist/validator';
import type { TestApp } from './app';

type Operation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];
/** What Prism's validators answer: fp-ts's Either, read by its tag so the test needs no fp-ts of its own. */
type Verdict = { _tag: 'Left'; left: readonly { message: string }[] } | { _tag: 'Right' };

export interface ExchangeRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** The path with its query string, as sent. */
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** One real request to the app and its answer, with what the published document says of each. */
export interface Exchange {
  status: number;
  headers: Headers;
  /** The answer's body: parsed when it is JSON (problem+json too), the text otherwise, undefined when empty. */
  body: unknown;
  /** The operation the document routes the request to, or undefined when none. */
  operationId: string | undefined;
  /** Where the request breaks the document: its route, its credentials, its parameters and body. */
  requestFindings: string[];
  /** Where the answer breaks the document: a status it does not list, another media type, a body or header off schema. */
  answerFindings: string[];
}

/**
 * Checks real requests and answers of the app against the OpenAPI document the app publishes (`/openapi.json`),
 * with Stoplight Prism's validators: what an outside reviewer runs as a validating proxy in front of the service.
 * Prism's warnings count too (an error status the document does not list is only a warning there).
 */
export class PublishedDocument {
  private constructor(
    private readonly app: Pick<TestApp, 'baseUrl'>,
    private readonly operations: Operation[],
  ) {}

  static async of(app: Pick<TestApp, 'baseUrl'>): Promise<PublishedDocument> {
    const document = (await (await fetch(`${app.baseUrl}/openapi.json`)).json()) as object;
    return new PublishedDocument(app, await getHttpOperationsFromSpec(document));
  }

  /** Sends `request` as it is (redirects are not followed) and checks both sides against the document. */
  async exchange(request: ExchangeRequest): Promise<Exchange> {
    const text = request.body === undefined ? undefined : JSON.stringify(request.body);
    const headers: Record<string, string> = {
      ...(text === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }),
      ...Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
    };
    const res = await fetch(`${this.app.baseUrl}${request.path}`, { method: request.method, headers, body: text, redirect: 'manual' });
    const raw = await res.text();
    const mediaType = res.headers.get('content-type') ?? '';
    const body = raw === '' ? undefined : /json/.test(mediaType) ? (JSON.parse(raw) as unknown) : raw;

    const url = new URL(request.path, this.app.baseUrl);
    const query = Object.fromEntries(
      [...new Set(url.searchParams.keys())].map((name) => {
        const values = url.searchParams.getAll(name);
        return [name, values.length === 1 ? values[0]! : values];
      }),
    );
    const input = {
      method: request.method.toLowerCase() as 'get' | 'post' | 'put',
      url: { path: url.pathname, query },
      headers,
      ...(request.body === undefined ? {} : { body: request.body }),
    };
    const routed = route({ resources: this.operations, input }) as { _tag: 'Left'; left: Error } | { _tag: 'Right'; right: Operation };
    if (routed._tag === 'Left') {
      return { status: res.status, headers: res.headers, body, operationId: undefined, requestFindings: [routed.left.message], answerFindings: [] };
    }
    const resource = routed.right;
    const answer = { statusCode: res.status, headers: Object.fromEntries(res.headers), ...(body === undefined ? {} : { body }) };
    return {
      status: res.status,
      headers: res.headers,
      body,
      operationId: resource.iid,
      requestFindings: [
        ...findings(validateSecurity({ resource, element: input }) as Verdict),
        ...findings(validateInput({ resource, element: input }) as Verdict),
      ],
      answerFindings: findings(validateOutput({ resource, element: answer }) as Verdict),
    };
  }
}

function findings(verdict: Verdict): string[] {
  return verdict._tag === 'Left' ? verdict.left.map((diagnostic) => diagnostic.message) : [];
}
