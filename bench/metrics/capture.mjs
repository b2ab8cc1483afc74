// Metric 2: captures per second against many holds (partial captures spread round-robin over `holds`
// authorizations, so concurrent captures rarely meet on one row), p50/p99, and the server's RSS at the end.
import { capture, createHold } from '../lifecycle.mjs';
import { runCount } from '../load-client.mjs';
import { CLIENTS, clientConnections, warmThenMeasure } from './settlement-load.mjs';

const HOLD_CENTS = 10_000_000;
const CAPTURE_CENTS = 100;

/**
 * @param {{ server: { url: string, memory(): { rssBytes: number, peakRssBytes: number } }, merchant: { apiKey: string }, config: { holds: number, holdsMaxMs: number, warmupMs: number, durationMs: number }, log: (line: string) => void }} context
 */
export async function measureCaptures({ server, merchant, config, log }) {
  const connections = clientConnections(server.url);
  try {
    log(`  placing up to ${config.holds} holds (at most ${config.holdsMaxMs / 1000} s)…`);
    const holds = await runCount({
      clients: CLIENTS,
      count: config.holds,
      maxMs: config.holdsMaxMs,
      iteration: (i) => createHold(connections[i], merchant.apiKey, { amountCents: HOLD_CENTS }),
    });
    let next = 0;
    const result = await warmThenMeasure(
      (i, onTime) => capture(connections[i], merchant.apiKey, holds[next++ % holds.length].token, CAPTURE_CENTS, { onTime }),
      config,
    );
    return { clients: CLIENTS, holds: holds.length, ...result, ...server.memory() };
  } finally {
    connections.close();
  }
}
