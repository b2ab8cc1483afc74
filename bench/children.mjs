// Every process the harness starts is registered here, so that a normal end, an error, Ctrl+C or SIGTERM all stop
// them: gracefully first (SIGTERM, the way an operator stops the server), then SIGKILL after a grace period.
import { spawn, fork } from 'node:child_process';

const children = new Set();

function track(child, name) {
  child.benchName = name;
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** `spawn` with the child in its own process group, so a terminal's Ctrl+C reaches only the harness, which stops it once. */
export function spawnTracked(name, command, args, options = {}) {
  return track(spawn(command, args, { detached: true, ...options }), name);
}

/** `fork` (a node child with an IPC channel), tracked the same way. */
export function forkTracked(name, modulePath, args = [], options = {}) {
  return track(fork(modulePath, args, { detached: true, ...options }), name);
}

export function isRunning(child) {
  return child.exitCode === null && child.signalCode === null;
}

/** SIGTERM, then SIGKILL when it has not exited within `graceMs`. Resolves when it is gone. */
export async function stopChild(child, graceMs = 15_000) {
  if (!isRunning(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (isRunning(child)) child.kill('SIGKILL');
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAllChildren() {
  await Promise.all([...children].map((child) => stopChild(child)));
}

/** Last resort on exit (synchronous): whatever is still running gets SIGKILL. */
function killRemaining() {
  for (const child of children) {
    if (isRunning(child)) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone between the check and the signal
      }
    }
  }
}

process.on('exit', killRemaining);

let interrupted = false;
const interruptHandlers = [];

/** True once SIGINT, SIGTERM or SIGHUP arrived: the run stops starting new work. */
export function isInterrupted() {
  return interrupted;
}

/**
 * `cleanUp` runs as soon as the run is interrupted (it must be safe to run while the run's own code is still
 * unwinding, and to be asked again by the run's `finally`); the process exits once it is done.
 */
export function onInterrupt(cleanUp) {
  interruptHandlers.push(cleanUp);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (interrupted) {
      // A second signal: no more waiting.
      killRemaining();
      process.exit(130);
    }
    interrupted = true;
    process.stderr.write(`\nbench: ${signal}: stopping every process it started (again to force)\n`);
    Promise.allSettled([stopAllChildren(), ...interruptHandlers.map((handler) => handler())]).finally(() => {
      // The run's own code may still be unwinding; it exits by itself, or here a moment later.
      setTimeout(() => process.exit(130), 2_000).unref();
    });
  });
}
