// The TypeScript declarations of the SDKs (`@svc/sdk-core/types`): what each SDK's build writes beside its script as
// `dist/sdk.d.ts` (served at /sdk/<name>/<version>/sdk.d.ts), and what the loader and React packages ship. Nothing is
// written by hand: each SDK's entry says what it puts on the page (`declare global { interface Window { … } }` for the
// ServiceFrontEndSDK global, `interface HTMLElementTagNameMap { … }` for its element), and the public types those name
// (the ServiceFrontEndSDK interface, the element's class with its JSDoc `@event`s) are printed, with every type they
// reach, by scripts/standalone-types.mjs.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { format } from 'prettier';
import { globalAugmentations, standaloneDeclarations, typeProgram } from '../scripts/standalone-types.mjs';

const ROOT = new URL('..', import.meta.url).pathname;

/** Each SDK: its package folder, the entry of its script, and how its documents name it. */
export const SDK_SOURCES = {
  elements: { dir: 'sdk-elements', entry: 'src/sdk.ts', title: 'Elements' },
  iframe: { dir: 'sdk-iframe', entry: 'src/host/loader.ts', title: 'The iframe SDK' },
  express: { dir: 'sdk-express', entry: 'src/sdk.ts', title: 'Express' },
};

/** `svc-ecom-sdk-express` → `SvcEcomSdkExpressElement`. */
export const elementInterfaceName = (tag) => `${tag.replace(/(^|-)([a-z])/g, (_m, _dash, letter) => letter.toUpperCase())}Element`;

const versionOf = (dir) => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')).version;

const printed = new Map();

/** What the SDKs named put on the page, and the declarations of the types they name (once per build: a program is slow). */
function declarationsOf(names) {
  const key = names.join(' ');
  if (!printed.has(key)) printed.set(key, printDeclarations(names));
  return printed.get(key);
}

function printDeclarations(names) {
  const sdks = names.map((name) => ({ name, ...SDK_SOURCES[name] }));
  const program = typeProgram(
    join(ROOT, sdks[0].dir, 'tsconfig.json'),
    sdks.map((sdk) => join(ROOT, sdk.dir, sdk.entry)),
  );
  const globals = new Map();
  const tags = new Map();
  for (const sdk of sdks) {
    const found = globalAugmentations(program, join(ROOT, sdk.dir, 'src'));
    for (const { name, symbol } of found.globals) globals.set(name, symbol);
    for (const { tag, symbol } of found.tags) tags.set(tag, symbol);
  }
  const body = standaloneDeclarations(program, {
    types: [...globals.values()].map((symbol) => ({ symbol, name: symbol.name })),
    elements: [...tags].map(([tag, symbol]) => ({ symbol, as: elementInterfaceName(tag) })),
  });
  return { globals, tags, body };
}

const tagMap = (tags) =>
  tags.size ? [`interface HTMLElementTagNameMap {`, ...[...tags.keys()].map((tag) => `  '${tag}': ${elementInterfaceName(tag)};`), '}'] : [];

/** Prettier, as the repository formats TypeScript. */
const formatted = (text) => format(text, { parser: 'typescript', printWidth: 120, singleQuote: true });

/**
 * The `sdk.d.ts` of one SDK, as the service serves it: its global (`var ServiceFrontEndSDK`) and its element's tag
 * typed in the page's globals, and every type they use exported by name.
 * @param {'elements' | 'iframe' | 'express'} name
 */
export async function sdkDeclarations(name) {
  const { dir, title } = SDK_SOURCES[name];
  const { globals, tags, body } = declarationsOf([name]);
  const installs = [...[...globals.keys()].map((global) => `\`window.${global}\``), ...[...tags.keys()].map((tag) => `\`<${tag}>\``)].join(' and ');
  const header = [
    '/**',
    ` * ${title} ${versionOf(dir)}: the TypeScript types of ${installs}, generated from the SDK's sources when it was built.`,
    ' * Save this file in your project, where your tsconfig.json includes it (for example as `src/service-sdk.d.ts`): the page',
    " * then has the SDK's types, and `import type { … } from './service-sdk'` names any of them. Load the script itself from",
    ' * the service (docs/integrating.md, "Browser SDKs").',
    ' */',
  ];
  const global = [
    'declare global {',
    ...[...globals].map(([global, symbol]) => `  var ${global}: ${symbol.name};`),
    ...tagMap(tags).map((line) => `  ${line}`),
    '}',
  ];
  return formatted([...header, body, ...global, ''].join('\n'));
}

/**
 * The declarations the loader and React packages ship: every SDK's types in one module, and the elements' tags in
 * the page's globals (the loader registers them). The ServiceFrontEndSDK global is not declared: the loader hands it
 * over instead.
 */
export async function packageDeclarations() {
  const { tags, body } = declarationsOf(Object.keys(SDK_SOURCES));
  return formatted([body, 'declare global {', ...tagMap(tags).map((line) => `  ${line}`), '}', ''].join('\n'));
}

/**
 * The SDK's `custom-elements.json` (the Custom Elements Manifest that Vue, Svelte, Angular and editors read): made by
 * the Lit analyzer (`@custom-elements-manifest/analyzer`, a dev dependency of the SDK package) over the element
 * folders `globs`, each element given the tag its SDK registers it under (define.ts's `HTMLElementTagNameMap`, which
 * the analyzer does not read) and a definition export.
 * @param {'elements' | 'express'} name
 * @param {string[]} globs source files of the elements, from the package folder
 * @param {string} outdir where the analyzer writes its manifest, from the package folder (the analyzer reads any
 *   path as one below the folder it runs in)
 */
export async function customElementsManifest(name, globs, outdir = 'dist') {
  const { dir } = SDK_SOURCES[name];
  const packageDir = join(ROOT, dir);
  const cli = join(dirname(createRequire(join(packageDir, 'package.json')).resolve('@custom-elements-manifest/analyzer/package.json')), 'cem.js');
  // The analyzer also writes its output path into package.json's `customElements` (it has no switch to turn that
  // off): a build into a temporary folder (the types test) would leave that folder's path in the package.
  const packageJson = join(packageDir, 'package.json');
  const packageText = await readFile(packageJson, 'utf8');
  try {
    execFileSync(process.execPath, [cli, 'analyze', '--litelement', '--globs', ...globs, '--exclude', 'src/**/*.test.ts', '--outdir', outdir], {
      cwd: packageDir,
      stdio: 'pipe',
    });
  } finally {
    await writeFile(packageJson, packageText);
  }
  const manifest = JSON.parse(await readFile(join(packageDir, outdir, 'custom-elements.json'), 'utf8'));
  const { tags } = declarationsOf([name]);
  for (const [tag, symbol] of tags) {
    const module = manifest.modules.find((m) => m.declarations?.some((d) => d.customElement && d.name === symbol.name));
    if (!module) throw new Error(`custom-elements.json has no element class ${symbol.name} (for <${tag}>): is it under ${globs.join(', ')}?`);
    module.declarations.find((d) => d.name === symbol.name).tagName = tag;
    module.exports = [...(module.exports ?? []), { kind: 'custom-element-definition', name: tag, declaration: { name: symbol.name, module: module.path } }];
  }
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
