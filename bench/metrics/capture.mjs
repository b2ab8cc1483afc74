// Metric 2: captures per second against many holds (partial captures spread round-robin over `holds`
// authorizations, so concurrent captures rarely meet on one row), p50/p99, and the server's RSS at the end.
import { createConnection, runClosedLoop, runCount } from '../load-client.mjs';
import { capture, createHold } from '../lifecycle.mjs';
import { Latencies } from '../latencies.mjs';

const CLIENTS = 8;
const HOLD_CENTS = 10_000_000;
const CAPTURE_CENTS = 100;

export async function measureCaptures({ server, merchant, config, log }) {
  const connections = Array.from({ length: CLIENTS }, () => createConnection(server.url));
  try {
    log(`  placing up to ${config.holds} holds (at most ${config.holdsMaxMs / 1000} s)…`);
    const holds = await runCount({
      clients: CLIENTS,
      count: config.holds,
      maxMs: config.holdsMaxMs,
      iteration: (i) => createHold(connections[i], merchant.apiKey, { amountCents: HOLD_CENTS }),
    });
    let next = 0;
    const iteration = (i, onTime) => capture(connections[i], merchant.apiKey, holds[next++ % holds.length].token, CAPTURE_CENTS, { onTime });
    await runClosedLoop({ clients: CLIENTS, durationMs: config.warmupMs, iteration: (i) => iteration(i) });
    const latencies = new Latencies();
    const result = await runClosedLoop({
      clients: CLIENTS,
      durationMs: config.durationMs,
      iteration: (i) => iteration(i, (ms) => latencies.add(ms)),
      onWindowEnd: () => latencies.close(),
    });
    const memory = server.memory();
    return { clients: CLIENTS, holds: holds.length, ...result, latencies: latencies.summary(), ...memory };
  } finally {
    connections.forEach((c) => c.close());
  }
}
