#!/usr/bin/env node
// `pnpm start`: the payment service (sandbox, embedded PostgreSQL unless DATABASE_URL is set) and the demo
// merchant, together. Ctrl+C stops both gracefully; a second Ctrl+C forces them.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.PORT || '8080';
const demoPort = process.env.DEMO_PORT || '3000';
const serviceUrl = `http://localhost:${port}`;

/** Sandbox conveniences (docs/operating.md#configuration, CALLBACK_ALLOW_PRIVATE_NETWORKS): local callback receivers are allowed when started this way. */
const sandboxEnv = process.env.SVC_MODE === 'production' ? {} : { CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' };

// The service serves the browser SDKs from their packages' dist/ folders: build them first (esbuild, seconds).
for (const sdk of ['sdk-elements', 'sdk-iframe', 'sdk-express']) {
  const cwd = path.join(root, sdk);
  if (!existsSync(path.join(cwd, 'build.mjs'))) continue;
  const built = spawnSync(process.execPath, ['build.mjs'], { cwd, stdio: 'inherit' });
  if (built.status !== 0) {
    process.stderr.write(`building ${sdk} failed; see above\n`);
    process.exit(1);
  }
}

// The consumer pages' script and style (hosted payment page, sticker, terminal simulator).
if (spawnSync(process.execPath, ['build-pages.mjs'], { cwd: path.join(root, 'server'), stdio: 'inherit' }).status !== 0) {
  process.stderr.write('building the consumer pages failed; see above\n');
  process.exit(1);
}

function run(name, cwd, script, env, { ipc = false } = {}) {
  // detached: each child has its own process group, so a terminal's Ctrl+C reaches only this script, which
  // then signals each child once (a second signal would force the server's exit).
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: path.join(root, cwd),
    env: { ...process.env, ...env },
    stdio: ['inherit', 'inherit', 'inherit', ...(ipc ? ['ipc'] : [])],
    detached: true,
  });
  child.name = name;
  return child;
}

const children = [];
let stopping = false;
let exitCode = 0;
let running = 0;
function stopAll(signal) {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

function watch(child) {
  children.push(child);
  running += 1;
  child.on('exit', (code, signal) => {
    running -= 1;
    if (!stopping) {
      process.stderr.write(`${child.name} exited (${signal ?? code}); stopping the rest\n`);
      exitCode = code || 1;
      stopping = true;
      stopAll('SIGTERM');
    }
    if (running === 0) process.exit(exitCode);
  });
  return child;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) {
      stopAll('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    stopAll('SIGTERM');
    if (running === 0) process.exit(exitCode);
  });
}

// The service tells, once it answers, where it is and which credentials file is its own (the one in its DATA_DIR, or
// its own beside another database's): the demo shop is started on exactly that file, never another service's.
const server = watch(run('server', 'server', 'src/main.ts', { PORT: port, ...sandboxEnv }, { ipc: true }));
const ready = await new Promise((resolve) => {
  server.on('message', (message) => {
    if (message?.type === 'svc:ready') resolve(message);
  });
  server.once('exit', () => resolve(null));
});
if (ready && !stopping) {
  const credentialsFile = ready.sandboxCredentialsFile;
  watch(
    run('demo-merchant', 'demo-merchant', 'src/main.ts', {
      DEMO_PORT: demoPort,
      SERVICE_URL: serviceUrl,
      // An explicit DEMO_CREDENTIALS_FILE still wins.
      ...(credentialsFile && !process.env.DEMO_CREDENTIALS_FILE ? { DEMO_CREDENTIALS_FILE: credentialsFile } : {}),
    }),
  );
  process.stdout.write(
    `\n  Payment service  ${ready.url}\n` +
      `  Demo merchant    http://localhost:${demoPort}\n` +
      (credentialsFile ? `  Credentials      ${process.env.DEMO_CREDENTIALS_FILE || credentialsFile}\n` : '') +
      '\n',
  );
}
