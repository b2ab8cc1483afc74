// A merchant's backend as a merchant writes it, in plain JavaScript, against the installed @svc/node: the package
// test (server/src/merchant-node-package.test.ts) copies this file into an empty folder where only the packed tarball
// is installed, as backend.mjs (ESM) and as backend.cjs (CommonJS: its two imports turned into requires), and runs
// each with plain `node`. It creates a transaction, verifies the callback the service sends, and reads a refusal.
import { createMerchantClient, SvcApiError, verifyCallback } from '@svc/node';
import http from 'node:http';

const { SVC_URL, SVC_API_KEY, SVC_SECRET } = process.env;
const client = createMerchantClient({ baseUrl: SVC_URL, apiKey: SVC_API_KEY });

// The callback endpoint: the raw body, verified before anything is read from it.
let settle;
const callback = new Promise((resolve) => (settle = resolve));
const endpoint = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    const rawBody = Buffer.concat(chunks);
    const verified = await verifyCallback(SVC_SECRET, req.headers, rawBody);
    res.writeHead(verified ? 204 : 401).end();
    settle({ verified, transaction: JSON.parse(rawBody.toString('utf8')) });
  });
});

async function main() {
  await new Promise((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const created = await client.initTransaction({
    amount: 1250,
    isCent: true,
    currency: 'USD',
    callbackURL: `http://127.0.0.1:${endpoint.address().port}/payments/callback`,
  });
  await client.cancelTransaction({ transactionNumber: created.TransactionNumber });
  const received = await callback;
  endpoint.close();

  let refusal = null;
  try {
    await client.getTransaction({ transactionNumber: 'no-such-transaction' });
  } catch (error) {
    if (!(error instanceof SvcApiError)) throw error;
    refusal = { isSvcApiError: SvcApiError.is(error, 'not_found'), code: error.code, status: error.status, requestId: error.requestId };
  }

  console.log(
    JSON.stringify({
      created: { transactionNumber: created.TransactionNumber, status: created.status, amountCents: created.amountCents },
      callback: { verified: received.verified, transactionNumber: received.transaction.TransactionNumber, status: received.transaction.status },
      refusal,
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
