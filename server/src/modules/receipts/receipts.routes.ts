import { SaveReceiptRequestSchema, type SaveReceiptResponse } from '@svc/protocol';
import { Router } from 'express';
import type { AppDeps } from '../../app-deps';
import { authenticate, principalOf } from '../../http/authenticate';
import { runMutation, sendMutation } from '../../http/idempotency';
import { parseInput } from '../../http/parse';
import { mutationScope } from '../../http/mutation-scope';
import { TransactionNumberParam } from '../../http/path-params';
import { readReceipt, saveReceipt } from './receipts.service';

/** The transaction's `posReceiptsEndpoint`: a merchant key or the transaction's own device saves and reads it. */
export function receiptsRouter(deps: AppDeps): Router {
  const router = Router();
  const merchantOrDevice = authenticate(deps, { allow: ['merchant_key', 'branch_key', 'device'] });

  router.post('/transactions/:transactionNumber/receipt', merchantOrDevice, async (req, res) => {
    const number = parseInput(TransactionNumberParam, req.params.transactionNumber, ['transactionNumber']);
    const body = parseInput(SaveReceiptRequestSchema, req.body);
    const principal = principalOf(res);
    const response = await runMutation(deps.db, deps.clock, mutationScope(req, res, principal), async (tx) => {
      await saveReceipt(tx, deps.clock, principal, number, body.receipt);
      return { body: { saved: true } satisfies SaveReceiptResponse };
    });
    sendMutation(res, response);
  });

  router.get('/transactions/:transactionNumber/receipt', merchantOrDevice, async (req, res) => {
    const number = parseInput(TransactionNumberParam, req.params.transactionNumber, ['transactionNumber']);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await readReceipt(deps.db, principalOf(res), number));
  });

  return router;
}
