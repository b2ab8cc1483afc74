// Where a server's time goes: a server started with `node --cpu-prof` runs a workload; its profile (written when
// it exits) is summarised over the measured window only, as self time by area (our modules, each npm package,
// node internals, garbage collection, idle) and the functions with the most self and total time.
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { SourceMap } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createConnection, runClosedLoop } from './load-client.mjs';
import { runLifecycle } from './lifecycle.mjs';
import { startServer } from './server-process.mjs';

/** V8's profile clock and process.hrtime are both the system's monotonic clock; microseconds here. */
export const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Starts a profiled server on `store`, runs `workload(server)` (which resolves with `{ fromUs, toUs, ...extra }`,
 * the window to keep), stops the server and summarises the main thread's profile.
 */
export async function profileServer(store, name, workload) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-bench-profile-'));
  try {
    const server = await startServer(store, { cpuProfDir: dir, name });
    let window;
    try {
      window = await workload(server);
    } finally {
      await server.stop();
    }
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread.
    const file = (await fs.readdir(dir)).find((f) => /\.0\.\d+\.cpuprofile$/.test(f));
    if (!file) throw new Error('the profiled server wrote no main-thread .cpuprofile');
    const { fromUs, toUs, ...extra } = window;
    return { ...extra, ...summariseProfile(JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')), { fromUs, toUs }) };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The lifecycle load of metric 1 on a profiled server. */
export function profileLifecycle({ store, merchant, durationMs, clients = 8 }) {
  return profileServer(store, 'server-profiled', async (server) => {
    const connections = Array.from({ length: clients }, () => createConnection(server.url));
    try {
      await runClosedLoop({ clients, durationMs: 1000, iteration: (i) => runLifecycle(connections[i], merchant.apiKey) });
      const fromUs = nowUs();
      const result = await runClosedLoop({ clients, durationMs, iteration: (i) => runLifecycle(connections[i], merchant.apiKey) });
      return { fromUs, toUs: nowUs(), perSecond: result.perSecond, what: `${(durationMs / 1000).toFixed(0)} s of ${clients}-client lifecycle load` };
    } finally {
      connections.forEach((c) => c.close());
    }
  });
}

/** The area a frame belongs to: `server/src/http`, `npm:drizzle-orm`, `node internals`, `(garbage collector)`… */
function areaOf({ url, functionName }) {
  if (!url) {
    if (['(garbage collector)', '(idle)', '(program)', '(root)'].includes(functionName)) return functionName;
    return 'native / V8 builtins';
  }
  const npm = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (npm) return `npm:${npm[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/(server\/src\/(?:modules\/[^/]+|[^/]+)|protocol\/src)/.exec(url);
  if (own) return own[1].replace(/\.ts$/, '');
  return url;
}

function frameName({ functionName, url, lineNumber }) {
  const file = url
    ? url.replace(/^file:\/\//, '').replace(/^.*?\/(server\/src|protocol\/src|packages\/[^/]+\/src|node_modules\/\.pnpm\/[^/]+\/node_modules)\//, '$1/')
    : '';
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

/**
 * The profiled server runs the production bundle (server/dist/main.js): each of its frames is put back at its
 * source file and line through the bundle's source map (build.mjs writes it), so the areas and names below are the
 * sources' (`server/src/http`, `protocol/src`), not one bundle's.
 */
function mapFramesToSources(profile) {
  const maps = new Map();
  const mapOf = (url) => {
    if (!maps.has(url)) {
      let map = null;
      try {
        const file = fileURLToPath(url);
        map = { dir: path.dirname(file), sourceMap: new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))) };
      } catch {
        // no source map beside it: keep the bundle's own locations
      }
      maps.set(url, map);
    }
    return maps.get(url);
  };
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    // (npm packages keep theirs: some ship maps to sources they do not ship.)
    if (!frame.url?.startsWith('file:') || !frame.url.endsWith('.js') || frame.url.includes('/node_modules/')) continue;
    const map = mapOf(frame.url);
    const entry = map?.sourceMap.findEntry(frame.lineNumber, frame.columnNumber);
    if (!entry?.originalSource) continue;
    const source = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : path.resolve(map.dir, entry.originalSource);
    node.callFrame = { ...frame, url: pathToFileURL(source).href, lineNumber: entry.originalLine, columnNumber: entry.originalColumn };
  }
}

/** Self and total time per area and function, counting only samples taken between `fromUs` and `toUs`. */
export function summariseProfile(profile, { fromUs = -Infinity, toUs = Infinity } = {}) {
  mapFramesToSources(profile);
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const selfByNode = new Map();
  let totalUs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (at < fromUs || at > toUs) return;
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + dt);
    totalUs += dt;
  });

  const byArea = new Map();
  const selfByFrame = new Map();
  const totalByFrame = new Map();
  const callers = new Map();
  for (const [id, us] of selfByNode) {
    const node = nodes.get(id);
    byArea.set(areaOf(node.callFrame), (byArea.get(areaOf(node.callFrame)) ?? 0) + us);
    const name = frameName(node.callFrame);
    selfByFrame.set(name, (selfByFrame.get(name) ?? 0) + us);
    // Native frames (no url) are named by the nearest JavaScript caller, where their time comes from.
    if (!node.callFrame.url) {
      let up = parent.get(id);
      while (up !== undefined && !nodes.get(up).callFrame.url) up = parent.get(up);
      if (up !== undefined) {
        const byCaller = callers.get(name) ?? new Map();
        const caller = frameName(nodes.get(up).callFrame);
        byCaller.set(caller, (byCaller.get(caller) ?? 0) + us);
        callers.set(name, byCaller);
      }
    }
    // Total time: each function once per sample, however often it recurses.
    const seen = new Set();
    for (let up = id; up !== undefined; up = parent.get(up)) {
      const frame = nodes.get(up).callFrame;
      if (!frame.url) continue;
      const key = frameName(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      totalByFrame.set(key, (totalByFrame.get(key) ?? 0) + us);
    }
  }
  const share = (map, n) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, ms: us / 1000, share: us / totalUs }));
  const mainCaller = (name) => {
    const byCaller = callers.get(name);
    return byCaller ? [...byCaller].sort((a, b) => b[1] - a[1])[0][0] : undefined;
  };
  return {
    totalMs: totalUs / 1000,
    busyShare: (totalUs - (byArea.get('(idle)') ?? 0)) / totalUs,
    areas: share(byArea, 16),
    selfTop: share(selfByFrame, 15).map((f) => ({ ...f, caller: mainCaller(f.name) })),
    totalTop: share(new Map([...totalByFrame].filter(([name]) => /server\/src|protocol\/src/.test(name))), 15),
  };
}
