// The service under test, started the way production starts it: the bundle `pnpm build` makes (`node dist/main.js`
// in server/, built by the harness once per run from the code as it is), with its configuration in the
// environment, against a real PostgreSQL. (`pnpm start` runs the same code under tsx, whose loader thread and
// compiler hold about 60 MB more.)
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/free-port.mjs';
import { isRunning, spawnTracked, stopChild } from './children.mjs';

export { freePort };

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_DIR = path.join(ROOT, 'server');
export const LOG_LEVEL = 'warn';

let built = null;
/** server/dist from the current sources (esbuild, under a second), once per harness run. */
export function serverBuilt() {
  built ??= promisify(execFile)(process.execPath, ['build.mjs'], { cwd: SERVER_DIR, timeout: 120_000 }).catch((error) => {
    throw new Error(`the server's production build (node build.mjs in server/) failed: ${error.stderr || error.message}`, { cause: error });
  });
  return built;
}

const BROWSER_PACKAGES = ['sdk-elements', 'sdk-iframe', 'sdk-express'];
let browserBuilt = null;
/**
 * Every SDK's dist/ from the current sources (their Vite builds, `node build.mjs` in each; seconds each), once per
 * harness run, before a server serves them: metric 6 weighs them and metric 10 loads them. `whenMissing` (the quick
 * run inside `pnpm test`, whose SDK suites have just built them) builds only a package without its dist/.
 * @param {{ whenMissing?: boolean }} [options]
 */
export function browserFilesBuilt({ whenMissing = false } = {}) {
  browserBuilt ??= (async () => {
    for (const name of BROWSER_PACKAGES) {
      const dir = path.join(ROOT, name);
      if (whenMissing && existsSync(path.join(dir, 'dist'))) continue;
      await promisify(execFile)(process.execPath, ['build.mjs'], { cwd: dir, timeout: 300_000 }).catch((error) => {
        throw new Error(`${name}'s build (node build.mjs in ${name}/) failed: ${error.stderr || error.message}`, { cause: error });
      });
    }
  })();
  return browserBuilt;
}

/** The environment every benchmarked server gets (docs/operating.md#configuration), on top of the store's. */
export function serverEnvironment(store, port, overrides = {}) {
  const env = {
    ...process.env,
    SVC_MODE: 'sandbox',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL,
    RATE_LIMIT_PER_S: '1000000',
    RATE_LIMIT_BURST: '1000000',
    CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true',
    ...store.serverEnv,
    ...overrides,
  };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  return env;
}

/**
 * Starts a server on `store` and resolves once /healthz answers 200. `cpuProfDir` adds `--cpu-prof` (the profile
 * is written when the server exits after SIGTERM); `databaseUrl` points it elsewhere than the store's own URL; `env`
 * adds settings (METRICS_PORT, OTEL_EXPORTER_OTLP_ENDPOINT).
 */
/**
 * @param {{ label: string, url(): string }} store
 * @param {{ cpuProfDir?: string, databaseUrl?: string, name?: string, env?: Record<string, string> }} [options]
 */
export async function startServer(store, { cpuProfDir, databaseUrl, name = `server-${store.label}`, env = {} } = {}) {
  await serverBuilt();
  const port = await freePort();
  const nodeArgs = [];
  if (cpuProfDir) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`);
  const child = spawnTracked(name, process.execPath, [...nodeArgs, 'dist/main.js'], {
    cwd: SERVER_DIR,
    env: serverEnvironment(store, port, { ...env, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (!isRunning(child)) throw new Error(`${name} exited (${child.signalCode ?? child.exitCode}) before answering:\n${output}`);
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`${name} did not answer /healthz within 120 s:\n${output}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }

  return {
    name,
    url,
    port,
    pid: child.pid,
    store,
    output: () => output,
    /** Resident and peak resident set size in bytes (Linux /proc). */
    memory: () => readMemory(child.pid),
    stop: () => stopChild(child),
  };
}

function readMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssBytes: kb('VmRSS') * 1024, peakRssBytes: kb('VmHWM') * 1024 };
  } catch {
    return { rssBytes: NaN, peakRssBytes: NaN };
  }
}
