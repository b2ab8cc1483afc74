// Metric 5: websocket fan-out (docs/design/realtime.md). `subscribers` merchant connections each subscribe to one
// authorization; `updates` partial captures are made one after another; for every (update, subscriber) the
// latency is receipt time − the update's `updatedAt`. Receipt is timestamped before anything else is done with
// the frame, and only the two fields needed are read, so the load client's own work stays small. To tell the
// server's part from the client's (both share this machine's cores), the CPU each used per update is reported,
// and per update the first and the last receipt.
import WebSocket from 'ws';
import { Latencies } from '../latencies.mjs';
import { createConnection } from '../load-client.mjs';
import { capture, createHold, merchantHeaders } from '../lifecycle.mjs';
import { processCpuMs } from '../cpu-usage.mjs';
import { nowUs, profileServer } from '../cpu-profile.mjs';

function wsUrl(base) {
  return `${base.replace(/^http/, 'ws')}/ws`;
}

/** Opens one merchant connection; resolves with it, or rejects with the upgrade's HTTP status. */
function open(url, apiKey) {
  return new Promise((resolve, reject) => {
    // skipUTF8Validation: the load client trusts the server's text frames, so that reading them costs it less.
    const socket = new WebSocket(url, { headers: merchantHeaders(apiKey), perMessageDeflate: false, handshakeTimeout: 15_000, skipUTF8Validation: true });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => {
      reject(Object.assign(new Error(`upgrade answered ${res.statusCode}`), { status: res.statusCode }));
      res.resume();
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

/** Whether this server serves /ws at all: null when it does, the reason when it answers 404. Other refusals throw. */
export async function websocketUnavailable(server, merchant) {
  try {
    const socket = await open(wsUrl(server.url), merchant.apiKey);
    socket.close();
    return null;
  } catch (error) {
    if (error.status === 404) return '/ws not available';
    throw new Error(`/ws refused the merchant's upgrade: ${error.message}`, { cause: error });
  }
}

export async function measureWebsocketFanOut({ server, merchant, config, log }) {
  const unavailable = await websocketUnavailable(server, merchant);
  if (unavailable) return { measured: false, reason: unavailable };

  const http = createConnection(server.url);
  const sockets = [];
  const latencies = new Latencies();
  const received = new Map();
  let otherFrames = 0;
  try {
    const hold = await createHold(http, merchant.apiKey, { amountCents: 1_000_000 });
    log(`  opening ${config.subscribers} subscriptions…`);
    const url = wsUrl(server.url);
    for (let start = 0; start < config.subscribers; start += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, config.subscribers - start) }, async () => {
          const socket = await open(url, merchant.apiKey);
          await /** @type {Promise<void>} */ (
            new Promise((resolve, reject) => {
              socket.once('message', (data) => {
                const text = data.toString();
                if (text.includes('"type":"subscribed"')) resolve();
                else reject(new Error(`subscribe answered ${text.slice(0, 200)}`));
              });
              socket.send(JSON.stringify({ type: 'subscribe', transactionNumber: hold.transactionNumber }));
            })
          );
          socket.on('message', (data) => {
            const receivedAt = Date.now();
            // Only the type, the sequence and updatedAt are read, straight from the bytes.
            const type = data.indexOf('"type":"transaction.updated"');
            if (type < 0 || type > 80) {
              otherFrames += 1;
              return;
            }
            const at = data.indexOf('"updatedAt":"');
            const updatedAt = Date.parse(data.toString('latin1', at + 13, at + 37));
            const seq = data.indexOf('"sequence":');
            const sequence = Number(/^\d+/.exec(data.toString('latin1', seq + 11, seq + 22))?.[0]);
            latencies.add(receivedAt - updatedAt);
            const one = received.get(sequence) ?? { count: 0, first: Infinity, last: -Infinity };
            one.count += 1;
            one.first = Math.min(one.first, receivedAt - updatedAt);
            one.last = Math.max(one.last, receivedAt - updatedAt);
            received.set(sequence, one);
          });
          return socket;
        }),
      );
      sockets.push(...batch);
    }
    log(`  ${config.updates} updates to ${sockets.length} subscribers…`);
    const fromUs = nowUs();
    const serverCpuBefore = processCpuMs(server.pid) ?? NaN;
    const clientCpuBefore = process.cpuUsage();
    const captureTimes = new Latencies();
    for (let i = 0; i < config.updates; i++) {
      await capture(http, merchant.apiKey, hold.token, 100, { onTime: (ms) => captureTimes.add(ms) });
      await new Promise((resolve) => setTimeout(resolve, config.gapMs));
    }
    const expected = config.updates * sockets.length;
    const deadline = Date.now() + 15_000;
    while (latencies.count < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const toUs = nowUs();
    const perUpdate = [...received.values()];
    const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    return {
      window: { fromUs, toUs },
      serverCpuPerUpdateMs: ((processCpuMs(server.pid) ?? NaN) - serverCpuBefore) / config.updates,
      clientCpuPerUpdateMs: (clientCpu.user + clientCpu.system) / 1000 / config.updates,
      captureP50: captureTimes.percentile(50),
      firstReceiptP50: median(perUpdate.map((u) => u.first)),
      lastReceiptP50: median(perUpdate.map((u) => u.last)),
      measured: true,
      subscribers: sockets.length,
      updates: config.updates,
      expected,
      received: latencies.count,
      otherFrames,
      latencies: latencies.summary(),
    };
  } finally {
    http.close();
    for (const socket of sockets) socket.terminate();
  }
}

/** The same fan-out on a server of its own started with --cpu-prof, profiled over the updates only. */
export function profileWebsocketFanOut({ store, merchant, config, log }) {
  return profileServer(store, 'server-ws-profiled', async (server) => {
    const again = await measureWebsocketFanOut({ server, merchant, config, log });
    if (!again.measured || !again.window) throw new Error(`the profiled server: ${again.reason}`);
    return {
      ...again.window,
      perSecond: again.updates / ((again.window.toUs - again.window.fromUs) / 1e6),
      what: `${again.updates} updates to ${again.subscribers} subscribers`,
    };
  });
}
