// Metric 7: the hosted payment page's time to first byte. `GET /pay/:linkId` is the page a consumer's phone opens
// after scanning the QR code; it is measured beside the merchant's `GET /transactions/:n` (a JSON read of the same
// transaction) under the same 8-client lifecycle load: one probe client alternates the two, one request at a time,
// over pending transactions (the page with the card form and wallets), while the load runs.
import { callEndpoint, initAuthorization, linkIdOf, merchantHeaders, runLifecycle } from '../lifecycle.mjs';
import { Latencies } from '../latencies.mjs';
import { createConnection, runClosedLoop, runCount } from '../load-client.mjs';

const LOAD_CLIENTS = 8;
const PAGES = 20;

/**
 * @param {{ server: { url: string }, merchant: { apiKey: string }, config: { warmupMs: number, durationMs: number }, log: (line: string) => void }} context
 */
export async function measurePageTtfb({ server, merchant, config, log }) {
  const load = Array.from({ length: LOAD_CLIENTS }, () => createConnection(server.url));
  const probe = createConnection(server.url);
  try {
    const targets = (await runCount({ clients: 4, count: PAGES, iteration: (i) => initAuthorization(load[i], merchant.apiKey) })).map((t) => ({
      linkId: linkIdOf(t),
      transactionNumber: t.TransactionNumber,
    }));
    log(`  ${LOAD_CLIENTS} clients of lifecycle load, a probe alternating GET /pay/:linkId and GET /transactions/:n…`);
    await runClosedLoop({ clients: LOAD_CLIENTS, durationMs: config.warmupMs, iteration: (i) => runLifecycle(load[i], merchant.apiKey) });
    const page = new Latencies();
    const status = new Latencies();
    let probing = true;
    const probeLoop = (async () => {
      for (let k = 0; probing; k += 1) {
        const target = targets[k % targets.length];
        const html = await callEndpoint(probe, 'getPaymentPage', { params: { linkId: target.linkId }, text: true, onFirstByte: (ms) => page.add(ms) });
        if (!String(html).includes('<html')) throw new Error(`GET /pay/${target.linkId} did not answer the page`);
        await callEndpoint(probe, 'getTransaction', {
          params: { transactionNumber: target.transactionNumber },
          headers: merchantHeaders(merchant.apiKey),
          onFirstByte: (ms) => status.add(ms),
        });
      }
    })();
    try {
      const result = await runClosedLoop({
        clients: LOAD_CLIENTS,
        durationMs: config.durationMs,
        iteration: (i) => runLifecycle(load[i], merchant.apiKey),
        onWindowEnd: () => {
          probing = false;
          page.close();
          status.close();
        },
      });
      return { loadClients: LOAD_CLIENTS, sequencesPerSecond: result.perSecond, failed: result.failed, page: page.summary(), status: status.summary() };
    } finally {
      probing = false;
      await probeLoop;
    }
  } finally {
    load.forEach((c) => c.close());
    probe.close();
  }
}
