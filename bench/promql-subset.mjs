// The few PromQL forms docs/grafana-dashboard.json uses, evaluated over scrapes of /metrics kept in memory, for the
// dashboard preview (dashboard-preview.mjs): `sum|min|max [by (labels)] (expr)`, `rate(selector[range])`,
// `histogram_quantile(q, expr)`, `a / b` (one-to-one on identical labels), selectors with `=`, `!=`, `=~`, `!~`.
// `rate` is taken between consecutive scrapes, whatever range the query names (a preview runs for seconds, not the
// five minutes of the dashboard's ranges). Anything else is refused with the query in the error.

/** @typedef {{ labels: Record<string, string>, value: number }} Sample */
/** @typedef {{ at: number, samples: Map<string, Sample[]> }} Scrape  samples by metric name; `at` in seconds */

/** The samples of a Prometheus text exposition, by metric name (comments and blank lines skipped). */
export function parseExposition(text) {
  /** @type {Map<string, Sample[]>} */
  const byName = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/.exec(line);
    if (!match) continue;
    /** @type {Record<string, string>} */
    const labels = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]] = pair[2].replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
    }
    const list = byName.get(match[1]) ?? [];
    list.push({ labels, value: Number(match[3]) });
    byName.set(match[1], list);
  }
  return byName;
}

/** A parsed query: a tree of nodes evaluated by `evaluate`. */
export function parseQuery(query) {
  const tokens = [...query.matchAll(/\s*([a-zA-Z_:][\w:]*|\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|=~|!~|!=|\[[^\]]*\]|[(){},=/])/gy)].map((m) => m[1]);
  if (tokens.join('').length !== query.replace(/\s+/g, '').length) throw new Error(`cannot read the query: ${query}`);
  let at = 0;
  const peek = () => tokens[at];
  const take = (expected) => {
    const token = tokens[at++];
    if (expected !== undefined && token !== expected) throw new Error(`expected ${expected} at "${token}" in: ${query}`);
    return token;
  };
  const labelList = () => {
    take('(');
    const names = [];
    while (peek() !== ')') {
      names.push(take());
      if (peek() === ',') take(',');
    }
    take(')');
    return names;
  };
  const selector = (name) => {
    const matchers = [];
    if (peek() === '{') {
      take('{');
      while (peek() !== '}') {
        const label = take();
        const op = take();
        const value = JSON.parse(take());
        matchers.push({ label, op, value });
        if (peek() === ',') take(',');
      }
      take('}');
    }
    return { kind: 'selector', name, matchers };
  };
  const term = () => {
    const token = take();
    if (/^\d/.test(token)) return { kind: 'number', value: Number(token) };
    if (['sum', 'min', 'max'].includes(token)) {
      const by = peek() === 'by' ? (take('by'), labelList()) : null;
      take('(');
      const inner = expression();
      take(')');
      return { kind: 'aggregate', op: token, by, inner };
    }
    if (token === 'rate') {
      take('(');
      const name = take();
      const inner = selector(name);
      if (!peek()?.startsWith('[')) throw new Error(`rate needs a range in: ${query}`);
      take();
      take(')');
      return { kind: 'rate', inner };
    }
    if (token === 'histogram_quantile') {
      take('(');
      const q = Number(take());
      take(',');
      const inner = expression();
      take(')');
      return { kind: 'quantile', q, inner };
    }
    if (token === '(') {
      const inner = expression();
      take(')');
      return inner;
    }
    return selector(token);
  };
  const expression = () => {
    let left = term();
    while (peek() === '/') {
      take('/');
      left = { kind: 'divide', left, right: term() };
    }
    return left;
  };
  const tree = expression();
  if (at !== tokens.length) throw new Error(`unexpected "${peek()}" in: ${query}`);
  return tree;
}

const signature = (labels) =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(',');

function matches(labels, { label, op, value }) {
  const got = labels[label] ?? '';
  if (op === '=') return got === value;
  if (op === '!=') return got !== value;
  const re = new RegExp(`^(?:${value})$`);
  return op === '=~' ? re.test(got) : !re.test(got);
}

/**
 * The query's instant vector at scrape `i` of `scrapes` (a rate needs the scrape before it: at 0 it is empty).
 * @param {any} node @param {Scrape[]} scrapes @param {number} i @returns {Sample[]}
 */
export function evaluate(node, scrapes, i) {
  switch (node.kind) {
    case 'number':
      return [{ labels: {}, value: node.value }];
    case 'selector':
      return (scrapes[i].samples.get(node.name) ?? [])
        .filter((s) => node.matchers.every((m) => matches(s.labels, m)))
        .map((s) => ({ labels: { ...s.labels }, value: s.value }));
    case 'rate': {
      if (i === 0) return [];
      const before = new Map(evaluate(node.inner, scrapes, i - 1).map((s) => [signature(s.labels), s.value]));
      const seconds = scrapes[i].at - scrapes[i - 1].at;
      return evaluate(node.inner, scrapes, i).map((s) => {
        const previous = before.get(signature(s.labels)) ?? 0;
        // A counter that went down was reset: count from zero, as Prometheus does.
        const increase = s.value >= previous ? s.value - previous : s.value;
        return { labels: s.labels, value: increase / seconds };
      });
    }
    case 'aggregate': {
      const groups = new Map();
      for (const s of evaluate(node.inner, scrapes, i)) {
        const labels = Object.fromEntries((node.by ?? []).filter((k) => k in s.labels).map((k) => [k, s.labels[k]]));
        const key = signature(labels);
        const group = groups.get(key);
        if (!group) groups.set(key, { labels, value: s.value });
        else group.value = node.op === 'sum' ? group.value + s.value : Math[node.op](group.value, s.value);
      }
      return [...groups.values()];
    }
    case 'divide': {
      const right = new Map(evaluate(node.right, scrapes, i).map((s) => [signature(s.labels), s.value]));
      return evaluate(node.left, scrapes, i)
        .filter((s) => right.has(signature(s.labels)))
        .map((s) => ({ labels: s.labels, value: s.value / (right.get(signature(s.labels)) ?? NaN) }));
    }
    case 'quantile':
      return quantiles(node.q, evaluate(node.inner, scrapes, i));
    default:
      throw new Error(`cannot evaluate ${node.kind}`);
  }
}

/** histogram_quantile: buckets grouped by their labels but `le`, interpolated linearly inside the bucket. */
function quantiles(q, buckets) {
  const groups = new Map();
  for (const b of buckets) {
    const { le, ...labels } = b.labels;
    const key = signature(labels);
    const group = groups.get(key) ?? { labels, buckets: [] };
    group.buckets.push({ le: le === '+Inf' ? Infinity : Number(le), count: b.value });
    groups.set(key, group);
  }
  const out = [];
  for (const { labels, buckets: list } of groups.values()) {
    list.sort((a, b) => a.le - b.le);
    const total = list.at(-1)?.count ?? 0;
    if (!(total > 0)) continue;
    const rank = q * total;
    let lower = 0;
    let below = 0;
    for (const bucket of list) {
      if (bucket.count >= rank) {
        // In the +Inf bucket the answer is the highest finite bound, as Prometheus answers.
        const value = bucket.le === Infinity ? lower : lower + ((bucket.le - lower) * (rank - below)) / (bucket.count - below || 1);
        out.push({ labels, value });
        break;
      }
      lower = bucket.le;
      below = bucket.count;
    }
  }
  return out;
}
