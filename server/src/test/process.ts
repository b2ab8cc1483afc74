import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { testHarnessEnvironment } from '../env';
import { pooledServerEnv } from './pooled-mode';

export const SERVER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Environment for a child: this one's PATH and HOME only, so a developer's DATABASE_URL never leaks in. */
export function childEnv(extra: Record<string, string>): Record<string, string> {
  const { path: PATH, home: HOME } = testHarnessEnvironment();
  return { PATH, HOME, ...extra };
}

export function runNode(args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<Finished> {
  return finished(spawnNode(args, env), timeoutMs);
}

/**
 * `ipc`: with a message channel, as `pnpm start` runs the service (it tells its parent where things are). `tsx`: with
 * the TypeScript loader (for `src/…` files); off for a built bundle.
 */
export function spawnNode(
  args: string[],
  env: Record<string, string>,
  { ipc = false, tsx = true } = {},
): ChildProcess & { output: { stdout: string; stderr: string } } {
  const stdio: ('ignore' | 'pipe' | 'ipc')[] = ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc' as const] : [])];
  const child = spawn(process.execPath, [...(tsx ? ['--import', 'tsx'] : []), ...args], {
    cwd: SERVER_ROOT,
    env: childEnv(pooledServerEnv(env)),
    stdio,
  }) as ChildProcess & {
    stdout: NonNullable<ChildProcess['stdout']>;
    stderr: NonNullable<ChildProcess['stderr']>;
  };
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  return Object.assign(child, { output });
}

export function finished(child: ChildProcess & { output: { stdout: string; stderr: string } }, timeoutMs = 30_000): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`process did not exit within ${timeoutMs} ms; output: ${child.output.stdout}${child.output.stderr}`));
    }, timeoutMs);
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      resolve({ code, signal, ...child.output });
    };
    // 'close' comes after 'exit' once the child's stdout and stderr are read to their end: the output is whole.
    if (child.stdout?.readableEnded !== false && child.stderr?.readableEnded !== false && (child.exitCode !== null || child.signalCode !== null))
      done(child.exitCode, child.signalCode);
    else child.once('close', done);
  });
}

/** The end of what a finished child wrote, for an assertion's message: an exit code alone does not say why (an
 * uncaught error's stack is on stderr). */
export function outputTail(exit: Finished, chars = 1500): string {
  return `stdout: ${exit.stdout.slice(-chars)}\nstderr: ${exit.stderr.slice(-chars)}`;
}

/** Polls `url` until it answers 200 or the child exits. */
export async function waitForHealthy(url: string, child: ChildProcess & { output: { stdout: string; stderr: string } }, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${child.output.stdout}${child.output.stderr}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become healthy: ${child.output.stdout}${child.output.stderr}`);
}
