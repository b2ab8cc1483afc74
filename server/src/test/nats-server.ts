import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../db/embedded';
import { testHarnessEnvironment } from '../env';

/** Debian's NATS server (`apt-get install nats-server`), or one on PATH; undefined when there is none. */
export const NATS_SERVER_BINARY = [
  '/usr/sbin/nats-server',
  ...testHarnessEnvironment()
    .path.split(path.delimiter)
    .map((dir) => path.join(dir, 'nats-server')),
].find((file) => existsSync(file));

/** The line a test that needs a NATS server prints when it skips. */
export const NATS_SKIP_LINE = 'skipped: no nats-server on PATH or at /usr/sbin/nats-server (Debian: apt-get install nats-server)';

export interface NatsServer {
  url: string;
  /** Kills the server at once (SIGKILL): every client loses its connection. */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A NATS server of the test's own on a free loopback port (never the machine's), answering once this resolves. */
export async function startNatsServer(): Promise<NatsServer> {
  if (!NATS_SERVER_BINARY) throw new Error(NATS_SKIP_LINE);
  const binary = NATS_SERVER_BINARY;
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const started = spawn(binary, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    child = started;
    const deadline = Date.now() + 10_000;
    while (!(await accepts(port))) {
      if (started.exitCode !== null || Date.now() > deadline) throw new Error(`nats-server did not start on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };
  await start();
  return { url: `nats://127.0.0.1:${port}`, kill: () => end('SIGKILL'), restart: start, stop: () => end('SIGTERM') };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
