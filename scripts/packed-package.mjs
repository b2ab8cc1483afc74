// A published package as a developer gets it, for its tests: `pnpm pack` (which builds it), the tarball installed
// with npm into an empty folder, offline, beside whatever else the test names (folders of packages already on this
// machine, such as React for @svc/react), and a strict `tsc` over a developer's code in that folder.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/**
 * Packs the package in `packageDir` and installs its tarball (and `alongside`, package folders) into an empty folder.
 * @param {string} packageDir
 * @param {string[]} [alongside]
 * @returns {Promise<{ folder: string, tarball: string, remove(): Promise<void> }>}
 */
export async function installPacked(packageDir, alongside = []) {
  const work = await mkdtemp(path.join(os.tmpdir(), 'packed-'));
  await run('pnpm', ['pack', '--pack-destination', work], { cwd: packageDir, maxBuffer: 16 * 1024 * 1024 });
  const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`pnpm pack made no tarball of ${packageDir}`);
  const folder = path.join(work, 'app');
  await mkdir(folder);
  await writeFile(path.join(folder, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  // Its own npm cache, offline: what is named here is all there is to install. The folders are copied first (npm
  // would link them, and reads a path with an `@version` in it, as pnpm's store has, as a package spec).
  const copies = await Promise.all(
    alongside.map(async (source, index) => {
      const copy = path.join(work, 'alongside', String(index));
      await cp(source, copy, { recursive: true, dereference: true });
      return copy;
    }),
  );
  const npm = ['install', '--offline', '--no-audit', '--no-fund', '--install-links', '--cache', path.join(work, 'npm-cache')];
  await run('npm', [...npm, path.join(work, tarball), ...copies], { cwd: folder });
  return { folder, tarball: path.join(work, tarball), remove: () => rm(work, { recursive: true, force: true }) };
}

/**
 * The errors of `tsc --strict` over `files` (name → source) written into `folder`, resolving packages as Node does
 * (`module: nodenext`), with the DOM: what a developer's strict project sees of the installed types.
 * @param {string} folder
 * @param {Record<string, string>} files
 * @param {string[]} [extra] more tsc options (`--jsx react-jsx`)
 * @returns {Promise<string[]>}
 */
export async function strictTypeErrors(folder, files, extra = []) {
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(folder, name), text);
  const options = ['--noEmit', '--strict', '--skipLibCheck', 'false', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'];
  try {
    await run(process.execPath, [tsc, ...options, '--lib', 'es2023,dom,dom.iterable', ...extra, ...Object.keys(files)], { cwd: folder });
    return [];
  } catch (error) {
    return String(error.stdout)
      .split('\n')
      .filter((line) => /error TS\d+/.test(line));
  }
}
