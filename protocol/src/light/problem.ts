/**
 * Reading the service's problem+json answers (docs/integrating.md#errors, `ProblemDetailsSchema` in `../problem.ts`) in the browser
 * bundles, leniently: whatever a proxy or an older service sends, the fields that are there are kept and the rest left
 * null. What the SDKs tell the integrator about a problem is their own business; light.test.ts checks that every
 * problem the service builds is read whole.
 */

export interface ProblemInfo {
  status: number;
  code: string | null;
  detail: string | null;
  /** `errors[].path` of the problem, e.g. `card.number`. */
  paths: string[];
  requestId: string | null;
}

/** Reads a non-2xx answer; never throws (a body that is not problem+json leaves the fields null). */
export async function readProblem(response: Response): Promise<ProblemInfo> {
  const info: ProblemInfo = { status: response.status, code: null, detail: null, paths: [], requestId: response.headers.get('x-request-id') };
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return info; // not JSON (a proxy's HTML page, say): the status alone decides
  }
  if (typeof body !== 'object' || body === null) return info;
  const { code, detail, errors, requestId } = body as Record<string, unknown>;
  if (typeof code === 'string') info.code = code;
  if (typeof detail === 'string') info.detail = detail;
  if (typeof requestId === 'string') info.requestId = requestId;
  if (Array.isArray(errors)) {
    for (const entry of errors) {
      const path = (entry as { path?: unknown } | null)?.path;
      if (typeof path === 'string') info.paths.push(path);
    }
  }
  return info;
}
