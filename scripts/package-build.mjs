// What the builds of the published packages (@svc/node, @svc/sdk-loader, @svc/react) do alike: one esbuild bundle per
// module format, and tsc's declarations made to stand alone for both (`.d.ts` for import, `.d.cts` for require).
import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/**
 * `dist/<name>.mjs` and `dist/<name>.cjs` from `entry`: everything bundled but `external`, for `target`.
 * @param {{ dir: string, entry: string, name?: string, platform: 'neutral' | 'browser', banner: string, external?: string[], minify?: boolean, plugins?: import('esbuild').Plugin[] }} options
 */
export async function bundleBothFormats({ dir, entry, name = 'index', platform, banner, external = [], minify = false, plugins = [] }) {
  // The package's own esbuild (a dev dependency of each published package).
  const { build } = await import(pathToFileURL(createRequire(path.join(dir, 'package.json')).resolve('esbuild')).href);
  for (const [format, extension] of [
    ['esm', 'mjs'],
    ['cjs', 'cjs'],
  ]) {
    await build({
      entryPoints: [path.join(dir, entry)],
      outfile: path.join(dir, 'dist', `${name}.${extension}`),
      bundle: true,
      platform,
      target: platform === 'browser' ? 'es2020' : 'node20',
      format,
      external,
      minify,
      mainFields: ['module', 'main'],
      plugins,
      banner: { js: banner },
      legalComments: 'none',
      logLevel: 'warning',
    });
  }
}

/**
 * tsc's declarations of the package's own modules (its `tsconfig.build.json`) into `typesDir`, with `replace`
 * (file name → text) written over some of them; then each made resolvable by Node: `.js` in every relative import of
 * the ESM declarations, `.cjs` in their CommonJS twins (`.d.cts`, what `require` gets). Nothing in them may import
 * from outside the package but its peer dependencies (`peers`): the build fails naming the file.
 * @param {{ dir: string, typesDir: string, replace?: Record<string, string>, peers?: string[] }} options
 */
export async function standaloneDeclarationFiles({ dir, typesDir, replace = {}, peers = [] }) {
  execFileSync(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.build.json')], { stdio: 'inherit' });
  for (const [file, text] of Object.entries(replace)) await writeFile(path.join(typesDir, file), text);
  const relativeName = path.relative(dir, typesDir);
  for (const file of await readdir(typesDir)) {
    if (!file.endsWith('.d.ts')) continue;
    const text = await readFile(path.join(typesDir, file), 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import) ['"]([^'"]+)['"]/g)) {
      if (!/^\.\/[\w.-]+$/.test(specifier) && !peers.includes(specifier))
        throw new Error(`${relativeName}/${file} imports ${specifier}: the published types must stand alone`);
    }
    const withExtension = (extension) => text.replace(/from '(\.\/[\w.-]+)'/g, `from '$1.${extension}'`);
    await writeFile(path.join(typesDir, file), withExtension('js'));
    await writeFile(path.join(typesDir, file.replace(/\.d\.ts$/, '.d.cts')), withExtension('cjs'));
  }
}
