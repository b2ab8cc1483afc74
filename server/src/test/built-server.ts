import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { SERVER_ROOT } from './process';

export interface BuiltServer {
  /** The bundle's entry: `node <main>` runs the service as `node server/dist/main.js` does. */
  main: string;
  remove(): Promise<void>;
}

/**
 * The server bundled as `node build.mjs` bundles it (one ESM file, npm packages external, the migrations beside it),
 * into a folder of its own under server/node_modules/.cache (so that its packages resolve, and server/dist, which a
 * running service may be using, is left alone). The consumer pages' assets are not built: the API is what is tested.
 */
export async function buildServer(name: string): Promise<BuiltServer> {
  const outdir = path.join(SERVER_ROOT, 'node_modules', '.cache', `svc-${name}-${process.pid}`);
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const { dependencies } = JSON.parse(await readFile(path.join(SERVER_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const external = Object.keys(dependencies).filter((dependency) => !dependency.startsWith('@svc/'));
  await build({
    absWorkingDir: SERVER_ROOT,
    entryPoints: { main: 'src/main.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: [...external, ...external.map((dependency) => `${dependency}/*`)],
    logLevel: 'warning',
  });
  await cp(path.join(SERVER_ROOT, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
  return { main: path.join(outdir, 'main.js'), remove: () => rm(outdir, { recursive: true, force: true }) };
}
