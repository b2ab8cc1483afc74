/** No request the API defines nests deeper than this; deeper bodies are refused before anything walks them. */
export const MAX_BODY_DEPTH = 32;

/**
 * The first place in a client's input that PostgreSQL cannot store or that is nested beyond MAX_BODY_DEPTH, as a
 * validation issue with its path; null when there is none. Text cannot hold U+0000, and jsonb refuses a lone UTF-16
 * surrogate (`"\ud800"` is valid JSON): refusing them where input enters (a JSON body, a query string, a websocket
 * message), with their path, keeps them from failing deep in a query as a 500. The walk uses its own stack, so no
 * input can exhaust the call stack.
 */
export function unstorableText(input: unknown): { path: string; message: string } | null {
  const stack: { value: unknown; path: string[] }[] = [{ value: input, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      const issue = textIssue(value);
      if (issue) return { path: path.join('.'), message: issue };
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (path.length >= MAX_BODY_DEPTH) return { path: path.join('.'), message: `is nested more than ${MAX_BODY_DEPTH} levels deep` };
    for (const [key, inner] of Object.entries(value)) {
      const issue = textIssue(key);
      if (issue) return { path: [...path, key].join('.'), message: `(a key) ${issue}` };
      stack.push({ value: inner, path: [...path, key] });
    }
  }
  return null;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textIssue(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the character U+0000';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode (a lone surrogate such as \\ud800 cannot be stored)';
  return null;
}
