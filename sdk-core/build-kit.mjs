// What every build of browser files does the same way (`@svc/sdk-core/build`: the SDK packages' build.mjs and the
// server's build-pages.mjs): Vite in library mode (one minified IIFE per entry, ES2022, terser; lazy scripts first, their
// hashes written into the bundles that load them: shared/lazy-script.ts), a style sheet through
// Vite's CSS pipeline, the card form's markup for a page that carries the form, and the checks every build runs: no
// bundle contains zod, each bundle's own rule of what it may import, gzip sizes against budgets. `node build.mjs`
// builds once and fails on any problem; `node build.mjs --watch` rebuilds on every change and reports problems without
// stopping (what `pnpm dev` runs).
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, runnerImport } from 'vite';
import { precompressFolder } from './precompress.mjs';

export { precompressFolder };
import { customElementsManifest, sdkDeclarations } from './sdk-types.mjs';

/**
 * @typedef {object} BrowserFile One file built from one entry.
 * @property {string} entry The source, from the package root: a script (bundled into an IIFE) or a `.css` file.
 * @property {string} file The built file's name in the output folder.
 * @property {{ template: string, file: string }} [page] An HTML page written beside it: the template with the card
 *   form's markup in place of `<!-- card form -->` (see `pageWithCardForm`).
 * @property {(input: string) => string | undefined} [refuse] Why a source file may not be in this bundle (undefined
 *   when it may); `input` is relative to the package root (`src/…`, `../sdk-core/src/…`, `../node_modules/…`).
 *
 * @typedef {object} LazyFile A script split off the bundles because only a rare path needs it (sdk-core's
 *   shared/lazy-script.ts): built first, on its own (an IIFE that hands its value to the bundle that loads it), and its
 *   file name and SRI hash written into every bundle as `__SVC_LAZY__[name]`. The service must serve it beside them.
 * @property {string} name What the bundles ask for: `lazyScript(name, …)`.
 * @property {string} entry
 * @property {string} file
 * @property {string[]} into The bundles (their `file`) that load it: only they carry its hash.
 *
 * @typedef {object} Budget A gzip size printed after the build, and a limit when `bytes` is given.
 * @property {string} label
 * @property {string[]} files Files in the output folder, their gzip sizes summed.
 * @property {number} [bytes]
 *
 * @typedef {object} BrowserBuild
 * @property {BrowserFile[]} files
 * @property {LazyFile[]} [lazy] Built before `files` (under `--watch` too, once: a change to one needs a new build).
 * @property {Budget[]} budgets
 * @property {string} [dir] The output folder, from the package root (`dist` unless told); emptied first.
 * @property {{ sdk: 'elements' | 'iframe' | 'express', elements?: string[] }} [publish] An SDK's published descriptions,
 *   written beside its files (sdk-types.mjs): `sdk.d.ts`, and with `elements` (globs of its element folders)
 *   `custom-elements.json`.
 */

/** Safe transforms only (no `unsafe*`): the output must behave as the source does. */
const TERSER = { ecma: 2020, toplevel: true, compress: { passes: 2 }, format: { comments: false } };
const CARD_FORM_MARKUP = new URL('./src/frame/card-form-markup.ts', import.meta.url).pathname;

/**
 * A bundle's `import()` is the source of a lazy script (lazy-script.ts), which the bundle loads as its built file: it is
 * left out (not bundled, not a chunk) and written as a rejected promise, what a lazy script the build did not make
 * gives.
 */
const LAZY_IMPORTS = {
  name: 'svc-lazy-imports',
  resolveDynamicImport: () => ({ id: 'lazy', external: true }),
  renderDynamicImport: () => ({ left: 'Promise.reject(', right: ')' }),
};

/** What the build of one package found wrong; the message lists every problem, one a line. */
export class BuildProblems extends Error {
  constructor(problems) {
    super(problems.join('\n'));
    this.problems = problems;
  }
}

/**
 * Empties the output folder and builds every file of `spec` into it, then checks the budgets. Resolves with the gzip
 * size of every file written (name → bytes); rejects with BuildProblems listing everything wrong, after printing the
 * sizes (unless `quiet`).
 * @param {string} root the package folder
 * @param {BrowserBuild} spec
 */
export async function buildBrowserFiles(root, spec, { quiet = false } = {}) {
  const dist = await emptyOutput(root, spec);
  const problems = [];
  const lazy = await buildLazyFiles(root, dist, spec, (found) => problems.push(...found));
  await Promise.all(spec.files.map((file) => build(viteConfig(root, dist, file, { watch: false, lazy, report: (found) => problems.push(...found) }))));
  const sizes = await gzipSizes(dist, [...namesOf(spec.files), ...(spec.lazy ?? []).map((file) => file.file)]);
  problems.push(...checkBudgets(spec.budgets, sizes, quiet ? () => {} : console.log));
  if (problems.length) throw new BuildProblems(problems);
  return sizes;
}

/**
 * Builds every file of `spec` and rebuilds it whenever one of its sources changes, printing its sizes and problems
 * (nothing stops on a problem). Resolves once every file has been built the first time, with `close()`.
 * @param {string} root
 * @param {BrowserBuild} spec
 */
export async function watchBrowserFiles(root, spec) {
  const dist = await emptyOutput(root, spec);
  const name = relative(join(root, '..'), root);
  const print = (line) => console.log(`${name}: ${line}`);
  const lazy = await buildLazyFiles(root, dist, spec, (found) => found.forEach((problem) => console.error(`${name}: build: ${problem}`)));
  const watchers = await Promise.all(
    spec.files.map(async (file) => {
      const written = namesOf([file]);
      const watcher = await build(
        viteConfig(root, dist, file, {
          watch: true,
          lazy,
          report: async (found) => {
            const problems = [...found];
            for (const budget of spec.budgets.filter((b) => b.files.some((f) => written.includes(f)))) {
              const sizes = await gzipSizes(dist, budget.files).catch(() => null); // a file another watcher has not written yet
              if (sizes) problems.push(...checkBudgets([budget], sizes, print));
            }
            for (const problem of problems) console.error(`${name}: build: ${problem}`);
          },
        }),
      );
      // Until the first build is written or has failed (Vite prints a build's error itself, this time and later).
      await new Promise((resolve) => {
        const firstBuild = (event) => {
          if (event.code !== 'END' && event.code !== 'ERROR') return;
          watcher.off('event', firstBuild);
          resolve();
        };
        watcher.on('event', firstBuild);
      });
      return watcher;
    }),
  );
  return { close: () => Promise.all(watchers.map((watcher) => watcher.close())) };
}

/**
 * A package's `build.mjs`: builds `spec` once, or with `--watch` keeps rebuilding it (and tells a parent process
 * started with an IPC channel, such as `pnpm dev`, `{ built: true }` once the first build is done). A failed build
 * prints every problem and exits 1.
 * @param {string} root
 * @param {BrowserBuild} spec
 */
export async function runBuild(root, spec, argv = process.argv.slice(2)) {
  if (argv.includes('--watch')) {
    await watchBrowserFiles(root, spec);
    await writePublished(root, spec);
    process.send?.({ built: true });
    return;
  }
  try {
    await buildBrowserFiles(root, spec);
    await writePublished(root, spec);
    // Brotli and gzip copies beside each file (not in --watch: the service compresses a file without them itself).
    await precompressFolder(join(root, spec.dir ?? 'dist'));
  } catch (error) {
    for (const problem of error instanceof BuildProblems ? error.problems : [error.message]) console.error(`build: ${problem}`);
    process.exit(1);
  }
}

/** The SDK's types (`sdk.d.ts`) and its elements' manifest (`custom-elements.json`), printed from its sources. */
async function writePublished(root, spec) {
  if (!spec.publish) return;
  const dir = spec.dir ?? 'dist';
  const { sdk, elements } = spec.publish;
  await writeFile(join(root, dir, 'sdk.d.ts'), await sdkDeclarations(sdk));
  if (elements) await writeFile(join(root, dir, 'custom-elements.json'), await customElementsManifest(sdk, elements, dir));
}

/**
 * Builds `spec.lazy` into `dist`, one after the other, and resolves with what the bundles are told of them:
 * `{ [name]: { file, integrity, into } }` (integrity: sha384, as browsers check it).
 */
async function buildLazyFiles(root, dist, spec, report) {
  const lazy = {};
  for (const file of spec.lazy ?? []) {
    await build(viteConfig(root, dist, file, { watch: false, lazy: {}, report }));
    const integrity = `sha384-${createHash('sha384')
      .update(await readFile(join(dist, file.file)))
      .digest('base64')}`;
    lazy[file.name] = { file: file.file, integrity, into: file.into };
  }
  return lazy;
}

/**
 * The Vite build of one file, with the checks plugin; `watch` makes `build()` resolve with a Rollup watcher. `lazy`
 * (see buildLazyFiles) is written in as `__SVC_LAZY__`; the `import()` of a lazy script's source, which only runs
 * without it, stays out of the bundle.
 */
function viteConfig(root, dist, file, { watch, lazy, report }) {
  const css = file.entry.endsWith('.css');
  return {
    configFile: false,
    envFile: false,
    root,
    mode: 'production',
    logLevel: 'warn',
    clearScreen: false,
    publicDir: false,
    define: { __SVC_LAZY__: JSON.stringify(lazyScriptsOf(lazy, file.file)) },
    plugins: [checks(root, file, report), LAZY_IMPORTS],
    build: {
      outDir: dist,
      emptyOutDir: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      target: 'es2022',
      minify: css ? 'esbuild' : 'terser',
      terserOptions: TERSER,
      watch: watch ? {} : null,
      // A style sheet goes through Vite's CSS pipeline (esbuild minifies it), one file under its own name.
      ...(css
        ? { cssCodeSplit: true, rollupOptions: { input: join(root, file.entry), output: { assetFileNames: file.file } } }
        : { lib: { entry: file.entry, formats: ['iife'], name: 'svc', fileName: () => file.file } }),
    },
  };
}

/**
 * The checks of one bundle, after each (re)build: every source file the bundle's module graph loaded (what it imports,
 * used or not) is checked against zod and the file's own `refuse` rule; `report` gets the problems (an empty list when
 * there are none). A file with a `page` emits that page too.
 */
function checks(root, file, report) {
  let inputs = [];
  let page = null;
  return {
    name: 'svc-browser-file-checks',
    async buildStart() {
      if (!file.page) return;
      this.addWatchFile(join(root, file.page.template));
      this.addWatchFile(CARD_FORM_MARKUP);
      page = await pageWithCardForm(root, file.page.template);
    },
    buildEnd() {
      inputs = [...this.getModuleIds()]
        .filter((id) => !id.startsWith('\0') && !this.getModuleInfo(id)?.isExternal)
        .map((id) => relative(root, id.split('?')[0]));
    },
    generateBundle() {
      if (page !== null) this.emitFile({ type: 'asset', fileName: file.page.file, source: page });
    },
    async writeBundle(_options, bundle) {
      const problems = Object.values(bundle)
        .filter((output) => output.type === 'chunk' && /\bimport\(/.test(output.code))
        .map((output) => `${output.fileName} keeps a dynamic import (a lazy script's source must be dropped: lazy-script.ts)`);
      problems.push(
        ...inputs
          .filter((input) => /node_modules[\\/](\.pnpm[\\/])?zod/.test(input))
          .map((input) => `${file.file} bundles zod (${input}); import only types from @svc/protocol and validate with @svc/protocol/light`),
      );
      for (const input of inputs) {
        const reason = file.refuse?.(input);
        if (reason) problems.push(`${file.file} ${reason}: ${input}`);
      }
      await report(problems);
    },
  };
}

/**
 * The page template `<root>/<template>` with sdk-core's card form markup (its one source, frame/card-form-markup.ts,
 * loaded through Vite's module runner) in place of `<!-- card form -->`, whitespace between lines removed.
 */
export async function pageWithCardForm(root, template) {
  const { module } = await runnerImport(CARD_FORM_MARKUP, { configFile: false, envFile: false, logLevel: 'warn' });
  const page = (await readFile(join(root, template), 'utf8')).replace('<!-- card form -->', () => module.CARD_FORM_HTML);
  return page.replace(/\n\s*/g, '\n');
}

async function emptyOutput(root, spec) {
  const dist = join(root, spec.dir ?? 'dist');
  await rm(dist, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });
  return dist;
}

/** What the bundle `name` is told of the lazy scripts it loads: `{ [name]: { file, integrity } }`. */
const lazyScriptsOf = (lazy, name) =>
  Object.fromEntries(
    Object.entries(lazy)
      .filter(([, built]) => built.into.includes(name))
      .map(([key, { file, integrity }]) => [key, { file, integrity }]),
  );

/** The names of the files and pages `files` builds. */
const namesOf = (files) => files.flatMap((file) => (file.page ? [file.file, file.page.file] : [file.file]));

/** The gzip size (level 9) of each named file in `dist`, by name. */
async function gzipSizes(dist, names) {
  const sizes = {};
  for (const name of names) sizes[name] = gzipSync(await readFile(join(dist, name)), { level: 9 }).length;
  return sizes;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Prints `<label> <size> gzip (budget …)` for each budget and returns a problem for each one over its limit. */
function checkBudgets(budgets, sizes, print) {
  const problems = [];
  for (const { label, files, bytes } of budgets) {
    const size = files.reduce((sum, name) => sum + sizes[name], 0);
    print(`${label.padEnd(31)}${kb(size)} gzip${bytes === undefined ? '' : ` (budget ${kb(bytes)})`}`);
    if (bytes !== undefined && size > bytes) problems.push(`${label} is ${kb(size)} gzip (${size} bytes), over its ${kb(bytes)} budget (${bytes} bytes)`);
  }
  return problems;
}
