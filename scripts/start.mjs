#!/usr/bin/env node
// `pnpm start`: the payment service (sandbox, embedded PostgreSQL unless DATABASE_URL is set) and the demo
// merchant, together. Ctrl+C stops both gracefully; a second Ctrl+C forces them.
// `pnpm dev` (`--dev`): the same, with the browser files (the SDKs' widgets and frames, the consumer pages' scripts)
// rebuilt by Vite on every change while the service runs. The service serves a rebuild from the next request on and
// has browsers revalidate the SDK scripts (SDK_FILES_REVALIDATE), so a reload shows a widget change within seconds.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const port = process.env.PORT || '8080';
const demoPort = process.env.DEMO_PORT || '3000';
const serviceUrl = `http://localhost:${port}`;

/** Sandbox conveniences: local callback receivers are allowed when started this way; `pnpm dev` revalidates SDK scripts. */
/** The Prometheus scrape of the service: http://127.0.0.1:9464/metrics unless METRICS_PORT says otherwise. */
const metricsPort = process.env.METRICS_PORT || '9464';
/** The demo shop's port goes to the service too: the sandbox's demo client ID allows the shop's origins on it. */
const sandboxEnv =
  process.env.SVC_MODE === 'production'
    ? {}
    : { CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', METRICS_PORT: metricsPort, DEMO_PORT: demoPort, ...(dev ? { SDK_FILES_REVALIDATE: 'true' } : {}) };

/** The browser files the service serves: the SDKs from their packages' dist/, the consumer pages' from server/dist/pages/. */
const builds = [
  ...['sdk-elements', 'sdk-iframe', 'sdk-express'].map((sdk) => ({ name: sdk, cwd: sdk, script: 'build.mjs' })),
  { name: 'the consumer pages', cwd: 'server', script: 'build-pages.mjs' },
].filter((b) => existsSync(path.join(root, b.cwd, b.script)));

const children = [];
let stopping = false;
let exitCode = 0;

function stopAll(signal) {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) {
      stopAll('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    stopAll('SIGTERM');
    if (children.every((child) => child.exitCode !== null || child.signalCode !== null)) process.exit(exitCode);
  });
}

/** Starts a child that runs until stopped; when one ends on its own, the rest are stopped and this script exits. */
function start(name, cwd, args, env = {}, { ipc = false } = {}) {
  // detached: each child has its own process group, so a terminal's Ctrl+C reaches only this script, which
  // then signals each child once (a second signal would force the server's exit).
  const child = spawn(process.execPath, args, {
    cwd: path.join(root, cwd),
    env: { ...process.env, ...env },
    stdio: ipc ? ['inherit', 'inherit', 'inherit', 'ipc'] : 'inherit',
    detached: true,
  });
  child.name = name;
  children.push(child);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`${name} exited (${signal ?? code}); stopping the rest\n`);
      exitCode = code || 1;
      stopping = true;
      stopAll('SIGTERM');
    }
    if (children.every((other) => other.exitCode !== null || other.signalCode !== null)) process.exit(exitCode);
  });
  return child;
}

if (dev) {
  // A watching build of each (Vite, `build.mjs --watch`), which says when its first build is written.
  const watchers = builds.map((b) => start(`building ${b.name}`, b.cwd, [b.script, '--watch'], {}, { ipc: true }));
  await Promise.all(watchers.map((child) => new Promise((resolve) => child.once('message', resolve).once('exit', resolve))));
} else {
  // Build them once first (Vite, seconds).
  for (const b of builds) {
    if (spawnSync(process.execPath, [b.script], { cwd: path.join(root, b.cwd), stdio: 'inherit' }).status !== 0) {
      process.stderr.write(`building ${b.name} failed; see above\n`);
      process.exit(1);
    }
  }
}

// The service tells, once it answers, where it is and which credentials file is its own (the one in its DATA_DIR, or
// its own beside another database's): the demo shop is started on exactly that file, never another service's.
const server = stopping ? null : start('server', 'server', ['--import', 'tsx', 'src/main.ts'], { PORT: port, ...sandboxEnv }, { ipc: true });
const ready = server
  ? await new Promise((resolve) => {
      server.on('message', (message) => {
        if (message?.type === 'svc:ready') resolve(message);
      });
      server.once('exit', () => resolve(null));
    })
  : null;
if (ready && !stopping) {
  const credentialsFile = ready.sandboxCredentialsFile;
  start('demo-merchant', 'demo-merchant', ['--import', 'tsx', 'src/main.ts'], {
    DEMO_PORT: demoPort,
    SERVICE_URL: serviceUrl,
    // An explicit DEMO_CREDENTIALS_FILE still wins.
    ...(credentialsFile && !process.env.DEMO_CREDENTIALS_FILE ? { DEMO_CREDENTIALS_FILE: credentialsFile } : {}),
  });
  process.stdout.write(
    `\n  Payment service  ${ready.url}\n` +
      `  Demo merchant    http://localhost:${demoPort}\n` +
      (credentialsFile ? `  Credentials      ${process.env.DEMO_CREDENTIALS_FILE || credentialsFile}\n` : '') +
      (dev ? '  Browser files    rebuilt on every change (reload the page to see one)\n' : '') +
      '\n',
  );
}
