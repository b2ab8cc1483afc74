import { ENDPOINT, type SaveReceiptResponse } from '@svc/protocol';
import type { ServiceDeps } from '../../service-deps';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { readReceipt, saveReceipt } from './receipts.service';

/** The transaction's `posReceiptsEndpoint`: a merchant key or the transaction's own device saves and reads it. */
export function receiptsRoutes(deps: Pick<ServiceDeps, 'db' | 'clock'>): EndpointRoute[] {
  return [
    route(ENDPOINT.saveReceipt, ({ params, req, principal, mutate }) => {
      // The receipt is kept as sent: the object the JSON parser made, checked by the table's schema before this runs.
      // The schema's parsed copy is built by assigning key after key, so a `__proto__` key would set the copy's
      // prototype instead of being kept.
      const receipt = (req.body as { receipt: Record<string, unknown> }).receipt;
      return mutate(async (tx) => {
        await saveReceipt(tx, deps.clock, principal(), params.transactionNumber, receipt);
        return { body: { saved: true } satisfies SaveReceiptResponse };
      });
    }),
    route(ENDPOINT.getReceipt, async ({ params, principal, res }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await readReceipt(deps.db, principal(), params.transactionNumber));
    }),
  ];
}
