// What every build of browser files does the same way (`@svc/sdk-core/build`: the SDK packages' build.mjs and the
// server's build-pages.mjs): one esbuild setup for the browser bundles (minified IIFE, ES2022, a metafile to check), the
// card form's markup for a page that carries the form, the check that no bundle contains zod, gzip sizes against
// budgets, and one way to report problems and fail.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { minify } from 'terser';

/**
 * Empties `<root>/<dir>` (`dist` unless told) and builds each `{ entry, file }` into it; resolves with the esbuild
 * results, in order. esbuild bundles and minifies; terser then compresses what esbuild leaves (about 5 % smaller
 * gzip on these bundles: it inlines single-use functions and constants and joins statements across them).
 */
export async function bundle(root, outputs, { dir = 'dist' } = {}) {
  const dist = join(root, dir);
  await rm(dist, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });
  return Promise.all(
    outputs.map(async ({ entry, file }) => {
      const result = await build({ ...browserBundle(root), entryPoints: [entry], outfile: join(dist, file), write: false });
      for (const output of result.outputFiles) {
        await writeFile(output.path, output.path.endsWith('.js') ? (await minify(output.text, TERSER)).code : output.contents);
      }
      return result;
    }),
  );
}

/** Safe transforms only (no `unsafe*`): the output must behave as esbuild's does. */
const TERSER = { ecma: 2020, toplevel: true, compress: { passes: 2 }, format: { comments: false } };

function browserBundle(root) {
  return {
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2022'],
    platform: 'browser',
    legalComments: 'none',
    metafile: true,
    write: true,
    logLevel: 'warning',
    absWorkingDir: root,
  };
}

/**
 * Writes `<root>/dist/<file>` from the page template `<root>/<template>` with sdk-core's card form markup (its one
 * source, frame/card-form-markup.ts) in place of `<!-- card form -->`, whitespace between lines removed.
 */
export async function writePageWithCardForm(root, template, file) {
  const markup = await build({
    ...browserBundle(root),
    entryPoints: [new URL('./src/frame/card-form-markup.ts', import.meta.url).pathname],
    format: 'esm',
    write: false,
    metafile: false,
  });
  const { CARD_FORM_HTML } = await import(`data:text/javascript;base64,${Buffer.from(markup.outputFiles[0].text).toString('base64')}`);
  const page = (await readFile(join(root, template), 'utf8')).replace('<!-- card form -->', () => CARD_FORM_HTML);
  await writeFile(join(root, 'dist', file), page.replace(/\n\s*/g, '\n'));
}

/** The files a bundle was made of, relative to `root` (`src/…`, `../sdk-core/src/…`, `../node_modules/…`). */
export function inputsOf(root, result) {
  return Object.keys(result.metafile.inputs).map((path) => relative(root, join(root, path)));
}

/** Problems for every zod file in a bundle: the browser validates with `@svc/protocol/light`. */
export function zodProblems(root, name, result) {
  return inputsOf(root, result)
    .filter((input) => /node_modules[\\/](\.pnpm[\\/])?zod/.test(input))
    .map((input) => `${name} bundles zod (${input}); import only types from @svc/protocol and validate with @svc/protocol/light`);
}

export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** The gzip size (level 9) of `<root>/dist/<file>` for each file (a path below dist/), summed. */
export async function gzipSize(root, ...files) {
  let total = 0;
  for (const file of files) total += gzipSync(await readFile(join(root, 'dist', file)), { level: 9 }).length;
  return total;
}

/** Prints `<label> <size> gzip (budget …)` and returns a problem when the size is over the budget. */
export function checkBudget(label, size, budget) {
  console.log(`${label.padEnd(31)}${kb(size)} gzip (budget ${kb(budget)})`);
  return size > budget ? [`${label} is ${kb(size)} gzip (${size} bytes), over its ${kb(budget)} budget (${budget} bytes)`] : [];
}

/** Prints every problem and exits 1 when there is any. */
export function failOn(problems) {
  if (!problems.length) return;
  for (const problem of problems) console.error(`build: ${problem}`);
  process.exit(1);
}
