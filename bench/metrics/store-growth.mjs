// Metric 3: lifecycle throughput on a store that already holds `seedCount` finished transactions, divided by the
// throughput on an empty store. Two servers, each on its own fresh database, are loaded at the same time, 8 clients
// each, so that both see exactly the same machine: on a shared machine, rounds one after the other differed by
// more than the effect being measured. Both are CPU-bound on the same cores, so each side's throughput follows
// its cost per sequence, and their ratio is the ratio of those costs.
import { connect, createStore } from '../database.mjs';
import { createConnection } from '../load-client.mjs';
import { runLifecycle } from '../lifecycle.mjs';
import { createMerchant } from '../merchant.mjs';
import { startServer } from '../server-process.mjs';
import { seedFinishedTransactions } from '../store-seed.mjs';
import { explainHotQueries } from '../hot-queries.mjs';
import { measureListPages } from '../list-pages.mjs';
import { lifecycleTarget } from './lifecycle.mjs';
import { cpuSampler } from '../cpu-usage.mjs';

/**
 * The two sides, started together (the start-up is most of this metric's fixed cost), each with one real
 * finished lifecycle: the template of the seeded rows, and the same starting point for both.
 */
export async function prepareStoreGrowth({ storeKind, cleanup }) {
  const sides = {};
  await Promise.all(
    ['empty', 'seeded'].map(async (label) => {
      const store = await createStore(storeKind, `growth_${label}`);
      cleanup.push(() => store.dispose());
      const server = await startServer(store);
      cleanup.push(() => server.stop());
      const merchant = await createMerchant(server);
      const sql = connect(store.url(), 2);
      cleanup.push(() => sql.end({ timeout: 2 }));
      const side = { store, server, merchant, sql };
      sides[label] = side;
      const connection = createConnection(server.url);
      try {
        side.template = await runLifecycle(connection, merchant.apiKey);
      } finally {
        connection.close();
      }
    }),
  );
  return sides;
}

export async function measureStoreGrowth({ sides, config, log }) {
  log(`  seeding ${config.seedCount.toLocaleString('en-US')} finished transactions…`);
  const seededAt = performance.now();
  const stored = await seedFinishedTransactions(sides.seeded.sql, sides.seeded.template.transactionNumber, config.seedCount);
  const seedSeconds = (performance.now() - seededAt) / 1000;
  await sides.empty.sql`analyze`;

  const targets = Object.fromEntries(
    Object.entries(sides).map(([label, side]) => [
      label,
      lifecycleTarget(
        side.server.url,
        (connection, record) => runLifecycle(connection, side.merchant.apiKey, { record }),
        cpuSampler({ pid: side.server.pid, sql: side.sql }),
      ),
    ]),
  );
  try {
    await Promise.all([targets.empty.round(config.warmupMs, { measure: false }), targets.seeded.round(config.warmupMs, { measure: false })]);
    for (let r = 0; r < config.rounds; r++) {
      await Promise.all([targets.empty.round(config.roundMs), targets.seeded.round(config.roundMs)]);
      log(
        `  round ${r + 1}/${config.rounds}: empty ${targets.empty.rounds.at(-1)?.perSecond.toFixed(1)} seq/s, seeded ${targets.seeded.rounds.at(-1)?.perSecond.toFixed(1)} seq/s`,
      );
    }
  } finally {
    Object.values(targets).forEach((t) => t.close());
  }
  const empty = targets.empty.totals();
  const seeded = targets.seeded.totals();

  let queries = null;
  if (config.explainRepeat > 0) {
    log('  EXPLAIN ANALYZE of the hot queries on both stores…');
    const onEmpty = await explainHotQueries(sides.empty.sql, sides.empty.merchant.merchantId, config.explainRepeat);
    const onSeeded = await explainHotQueries(sides.seeded.sql, sides.seeded.merchant.merchantId, config.explainRepeat);
    queries = onSeeded.map((q, i) => ({ name: q.name, emptyMs: onEmpty[i]?.executionMs, seededMs: q.executionMs, plan: q.plan }));
  }

  let listPages = null;
  if (config.listRepeat > 0) {
    log('  GET /transactions pages on both stores…');
    listPages = {};
    for (const [label, side] of Object.entries(sides)) {
      const [{ stored }] = await side.sql`select count(*)::int as stored from transactions`;
      const pages = await measureListPages(side.server.url, side.merchant.apiKey, side.template.transactionNumber, config.listRepeat);
      listPages[label] = { stored, pages };
    }
  }

  for (const side of Object.values(sides)) await side.server.stop();
  return {
    seedCount: config.seedCount,
    stored,
    seedSeconds,
    empty: { ...empty, p99: targets.empty.latencies.all.percentile(99) },
    seeded: { ...seeded, p99: targets.seeded.latencies.all.percentile(99) },
    ratio: seeded.perSecond / empty.perSecond,
    roundRatios: targets.seeded.rounds.map((s, i) => s.perSecond / targets.empty.rounds[i].perSecond),
    queries,
    listPages,
  };
}
