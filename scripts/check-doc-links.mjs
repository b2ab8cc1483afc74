// Every relative link in the repository's markdown resolves: the file (or folder) exists, and a `#anchor` into a
// markdown file names one of its headings (as GitHub makes them). So does every document a source file names from the
// repository's root (`docs/integrating.md#idempotency` in a comment). And README.md stays under 150 lines and links every
// other document. Run by `pnpm lint`; exits 1 listing each problem.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.data', '.git', 'coverage', 'test-results', 'playwright-report']);

/** The repository's files whose names end with one of `extensions`, outside what is installed or generated. */
function filesEndingWith(extensions, dir = root) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : filesEndingWith(extensions, path.join(dir, entry.name));
    return extensions.some((extension) => entry.name.endsWith(extension)) ? [path.join(dir, entry.name)] : [];
  });
}

/** The text outside fenced code blocks, line by line (numbers kept), with inline code blanked out. */
function proseLines(text) {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
  });
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

const anchorCache = new Map();

/** The anchors of a markdown file's headings (a repeated heading gets -1, -2, …). */
function anchorsOf(file) {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** The problem with one link target of `file`, or null when it resolves. */
function problemWith(file, target, from = path.dirname(file)) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // http:, https:, mailto: …
  const [pathPart, anchor] = target.split('#', 2);
  const resolved = pathPart ? path.resolve(from, decodeURIComponent(pathPart)) : file;
  if (!resolved.startsWith(root)) return `${target} leaves the repository`;
  if (!existsSync(resolved)) return `${target}: no such file`;
  if (anchor && statSync(resolved).isFile() && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
    return `${target}: no heading with the anchor #${anchor}`;
  }
  return null;
}

const problems = [];
for (const file of filesEndingWith(['.md'])) {
  proseLines(readFileSync(file, 'utf8')).forEach((line, i) => {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const problem = problemWith(file, match[1]);
      if (problem) problems.push(`${path.relative(root, file)}:${i + 1}: ${problem}`);
    }
  });
}
/** A document named from the root in source text: `docs/….md`, `<package>/README.md`, `CONTRIBUTING.md`, with an anchor. */
const NAMED_DOCUMENT = /(?<![\w./-])((?:docs\/[\w./-]+|[\w-]+\/README|README|CONTRIBUTING|BENCHMARKS)\.md(?:#[\w-]+)?)/g;
for (const file of filesEndingWith(['.ts', '.js', '.mjs', '.cjs'])) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      for (const match of line.matchAll(NAMED_DOCUMENT)) {
        const problem = problemWith(file, match[1], root);
        if (problem) problems.push(`${path.relative(root, file)}:${i + 1}: ${problem}`);
      }
    });
}

// The README is the front door: short, and a way to every other document.
const readme = path.join(root, 'README.md');
const readmeLines = readFileSync(readme, 'utf8').trimEnd().split('\n');
if (readmeLines.length > 150) problems.push(`README.md: ${readmeLines.length} lines, over 150: move the detail to a document under docs/`);
const linked = new Set(
  readmeLines.flatMap((line) => [...line.matchAll(/\]\(\s*<?([^)\s>#]+)/g)].map((match) => path.resolve(root, decodeURIComponent(match[1])))),
);
for (const document of filesEndingWith(['.md'])) {
  if (document !== readme && !linked.has(document)) problems.push(`README.md: no link to ${path.relative(root, document)}`);
}

if (problems.length > 0) {
  console.error(`Problems in the documents:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
